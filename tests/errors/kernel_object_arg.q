% EXPECT: 1 parallel_do: argument 'p' of kernel 'k' is an object: kernels take arrays and numbers
% An object is not a kernel argument (docs/language.md, "Classes and cell arrays"): the
% error says to pass its array field instead, as published code does (p.img).
function [] = __kernel__ k(p : object, y : vec, pos : int)
    y[pos] = p.img[pos]
end
p = object()
p.img = ones(4)
y = zeros(4)
parallel_do(4, p, y, k)
