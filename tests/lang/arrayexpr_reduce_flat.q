% Whole-array reductions of matrices and cubes read in row-major order: a 1-D launch over
% every element of an array of more dimensions takes the linear loop (emit_analysis.c
% find_linear: 16 elements a thread a step, vector loads, then vectors, then single
% elements), on the host reductions and on a user kernel with an output alike. Elements
% are small integers (k mod 3 in row-major order), so every sum stays below 2^24, is exact
% in float and is checked against its closed form; the sizes leave remainders for each loop
% (not multiples of 4 or 16).

function [s : scalar] = __kernel__ kflat(x : mat, pos : int)
    s += x[pos] * 2
endfunction

% sum of k mod 3 over k < n, and of its squares, by whole periods and the rest
function [s, q] = closed(n)
    s = 3 * floor(n / 3)
    q = 5 * floor(n / 3)
    for j = 0..mod(n, 3) - 1
        s += j
        q += j * j
    endfor
endfunction

function [] = check(sz)
    n = prod(sz)
    x = reshape(float(mod(0..n - 1, 3)), sz)
    [s, q] = closed(n)
    assert(sum(x) == s)
    assert(sum(x .* x) == q)
    assert(abs(mean(x) - s / n) < 1e-6 * (s / n))
    assert(max(x) == (n >= 3 ? 2 : n - 1))
    assert(min(x - 1) == -1)
    assert(max(abs(x - 3)) == 3)
    xi = int(x)
    assert(sum(xi .* xi) == q)
    assert(max(xi) == max(x))
    if numel(sz) == 2
        assert(parallel_do(n, x, kflat) == 2 * s)
    endif
endfunction

check([3000, 1999])
check([1023, 5])
check([2, 3, 1001])
check([7, 1])

% a NaN, wherever it falls in a thread's 16: max and min skip it (docs/library.md), sum has it
y = reshape(float(mod(0..3000 * 1999 - 1, 3)), [3000, 1999])
y[1234, 567] = 0 / 0
assert(max(y) == 2)
assert(min(y) == 0)
y[0, 0] = -5
y[2999, 1998] = 9
assert(max(y) == 9 && min(y) == -5)
assert(isnan(sum(y)))
print "ok"
