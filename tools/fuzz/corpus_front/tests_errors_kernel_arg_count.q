% EXPECT: 1 ^tests/errors/kernel_arg_count\.q:8:(1|12): (runtime )?error: .*(argument|parameter)
function [] = __kernel__ k(x : vec, y : vec, pos : int)
    y[pos] = x[pos]
endfunction

x = zeros(4)
% the kernel takes two data arguments, one is given
parallel_do(4, x, k)
