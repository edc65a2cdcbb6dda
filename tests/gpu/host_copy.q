% tests/gpu.sh (pool step): the host-copy rule. Naming, assigning, passing, returning and
% destructuring an array moves nothing; reading an element copies it back once and keeps the
% device copy; writing an element drops the device copy. gpu.sh checks the counters of
% --profile: 2 uploads (d; a after the host wrote a[0]) and 3 downloads (the three reads
% marked below). The asserts fail if a stale host copy (7 instead of 8) or a stale device
% copy (4 instead of 101) were read.
function [] = __kernel__ k_set(x : vec, v : scalar, pos : int)
    x[pos] = v + pos
endfunction
function [] = __kernel__ k_add(x : vec, y : vec, pos : int)
    x[pos] = x[pos] + y[pos]
endfunction
function y = pass(x)
    y = x
endfunction
function [p, q] = two(x)
    p = x
    q = x
endfunction
n = 1024
a = zeros(n)
parallel_do(n, a, 1.0, k_set)           % a = 1 + pos, on the device only (no upload)
b = a
c = pass(b)
[p, q] = two(c)
s = size(p, 0) + numel(q)
d = ones(n)
parallel_do(n, q, d, k_add)             % a = 2 + pos; uploads d
assert(a[5] == 7)                       % download 1
parallel_do(n, b, d, k_add)             % a = 3 + pos; a and d stay valid on the device
assert(p[5] == 8)                       % download 2: the host copy of 7 is stale
a[0] = 100                              % the device copy of a is dropped (no transfer)
parallel_do(n, c, d, k_add)             % a = 4 + pos, a[0] = 101; uploads a
assert(a[0] == 101 && q[1] == 5)        % download 3
assert(sum(a) == 101 + sum(5..n + 3) && s == 2048)
print "host_copy: ok"
