% EXPECT: 1 ^tests/errors/tiling_dims_zero\.q:3:29: error: each of dims must be an integer literal from 1
function [] = __kernel__ k(x : vec, pos : int)
    !kernel_tiling dims=[32,0,1]; mode="global"; target="gpu"
    x[pos] = 1
endfunction
x = zeros(8)
parallel_do(8, x, k)
