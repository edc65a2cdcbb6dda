% EXPECT: 1 ^tests/errors/tiling_dims_length\.q:3:25: error: dims must be auto or a list of 1 to 3 positive integers
function [] = __kernel__ k(x : vec, pos : int)
    !kernel_tiling dims=[8,8,8,8]; mode="global"
    x[pos] = 1
endfunction
