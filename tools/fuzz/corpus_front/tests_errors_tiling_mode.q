% EXPECT: 1 ^tests/errors/tiling_mode\.q:3:39: error: mode must be "global" or "local"
function [] = __kernel__ k(x : vec, pos : int)
    !kernel_tiling dims=[8,8,1]; mode="tiled"
    x[pos] = 1
endfunction
