% EXPECT: 1 ^tests/errors/tiling_dims_negative\.q:4:31: error: each of dims must be an integer literal from 1
x = zeros(4, 4)
for m = 0..3
    {!kernel_tiling dims=[1,1,-4]; mode="local"}
    for n = 0..3
        x[m, n] = m + n
    endfor
endfor
