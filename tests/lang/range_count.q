% How many elements a range of scalars has (docs/language.md "Ranges"), on the host and in
% kernels alike: floor((b - a) / step) + 1, one more only from within rounding below an
% integer, never more. Counted against closed forms and against a kernel's loop.

function [c : int] = __kernel__ count_loop(a : scalar, s : scalar, b : scalar, pos : int)
    for i = a..s..b
        c += 1
    endfor
endfunction

function [] = check(a, s, b, want)
    assert(numel(a..s..b) == want)
    assert(parallel_do(1, a, s, b, count_loop) == want)
endfunction

n = prod([3000, 1999])           % a scalar: 5997000
assert(numel(0..n - 1) == 5997000)
check(0, 1, n - 1, 5997000)
check(0, 0.5, n, 11994001)      % an exact step that is not whole
check(0, 0.1, 1, 11)            % 0.1 is not exact in float: the end is within rounding
check(0, 0.1, 0.95, 10)         % 9.5 steps: never rounded up
check(1, 0.25, 2, 5)
check(10, -0.1, 9, 11)
check(5, 1, 4, 0)
check(16777216.0, 1, 16777216.0, 1)
print "ok"
