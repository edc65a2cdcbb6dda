% EXPECT: 1 ^tests/errors/launch_dims_pos_int\.q:9:1: runtime error: parallel_do: kernel 'k' declares 'pos : int' \(1-D\), but the launch is 2-D
% A 2-D launch of a kernel whose `pos` holds one dimension would cover only part of the data
% silently; it is an error naming both (docs/language.md, "Kernels").
function [] = __kernel__ k(y : mat, pos : int)
    y[pos] = 1
endfunction

y = zeros(4, 4)
parallel_do([4, 4], y, k)
print sum(y)
