% EXPECT: 1 parallel_do: argument 'c' of kernel 'k' is a cell array: kernels take arrays and numbers
% A cell array is not a kernel argument (docs/language.md, "Classes and cell arrays"):
% pass its element, c[0].
function [] = __kernel__ k(c, y : vec, pos : int)
    y[pos] = c[0][pos]
end
c = cell(2)
c[0] = ones(4)
y = zeros(4)
parallel_do(4, c, y, k)
