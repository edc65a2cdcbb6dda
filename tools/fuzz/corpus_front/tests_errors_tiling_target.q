% EXPECT: 1 ^tests/errors/tiling_target\.q:3:53: error: target must be "gpu" or "cpu"
function [] = __kernel__ k(x : vec, pos : int)
    !kernel_tiling dims=auto; mode="global"; target="fpga"
    x[pos] = 1
endfunction
