% EXPECT: 1 ^tests/errors/tiling_local_auto\.q:3:5: error: local tiling needs literal dims
function [] = __kernel__ k(x : vec, pos : int)
    !kernel_tiling dims=auto; mode="local"
    x[pos] = 1
endfunction
