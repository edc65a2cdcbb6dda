% EXPECT: 1 ^tests/errors/kernel_direct_call\.q:7:(1|2): (runtime )?error: .*(kernel|parallel_do)
function [] = __kernel__ k(x : vec, pos : int)
    x[pos] = 1
endfunction

x = zeros(4)
k(x, 0)
