% Types written after call arguments, as published code writes them
% (`denoise(img, img, half_search : int, h : scalar)`, `imresize(I : mat, 1/s, "nearest")`):
% the argument is converted like a typed assignment (docs/parser.md).
function [kinds, y] = probe(a, b)
    kinds = [isscalar(a), isscalar(b)]
    y = a / b
endfunction

function y = half(n)
    y = n / 2
endfunction

r = 5.0
[k, q] = probe(r : int, 2 : int)
assert(q == 5 / 2)                 % probe's own division: ints give the same real quotient
n = half(r : int)                  % an integral scalar converts to int
m = half(r)
assert(n == m && n == 2.5)
j = 4
s = half(j : scalar)
assert(s == 2)
x = ones(2, 3)
[k, y] = probe(x : mat, 1 : scalar)
assert(numel(y) == 6 && sum(y) == 6 && k[1])
[k, y] = probe(1 : bool, 1)
assert(y == 1)
% the argument with its type is still the same value: no copy when no conversion is needed
z = zeros(3)
function [] = fill(a, v)
    a[:] = v
endfunction
fill(z : vec, 7)
assert(sum(z) == 21)
print "call_arg_types: ok"
