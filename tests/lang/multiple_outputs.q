% Functions with several outputs, and destructuring assignment.

function [s, d] = sum_diff(a, b)
    s = a + b
    d = a - b
endfunction

function [mn : scalar, mx : scalar, idx : int] = min_max(x : vec)
    mn = x[0]
    mx = x[0]
    idx = 0
    for i = 1..numel(x)-1
        if x[i] < mn
            mn = x[i]
        endif
        if x[i] > mx
            mx = x[i]
            idx = i
        endif
    endfor
endfunction

function [] = no_outputs(x)
    x[0] = 1
endfunction

[s, d] = sum_diff(5, 3)
assert(s == 8 && d == 2)

[lo, hi, at] = min_max([3, -1, 7.5, 2])
assert(lo == -1 && hi == 7.5 && at == 2)

% destructuring a vector literal, as in the seeds: [a, b] = [x[i], x[i+1]]
x = [10, 20, 30]
[a, b] = [x[0], x[2]]
assert(a == 10 && b == 30)
[M, N, P] = [3, 4, 5]
assert(M * N * P == 60)
[sum1, sum2] = [0.0, 0.0]
sum1 += 2
assert(sum1 == 2 && sum2 == 0)

% swapping: the right side is evaluated before any target is assigned
[a, b] = [b, a]
assert(a == 30 && b == 10)
[x[0], x[2]] = [x[2], x[0]]
assert(x[0] == 30 && x[2] == 10)

% destructuring a vector variable, e.g. a position
p = [7, 8, 9]
[i, j, k] = p
assert(i == 7 && j == 8 && k == 9)

% a function with no outputs still runs
y = zeros(2)
no_outputs(y)
assert(y[0] == 1)
print "multiple_outputs: ok"

% MATLAB's idiom: an output named like a parameter starts as the argument's value
function x = bump(x)
    x = x + 1
endfunction

function [a, b] = keep_and_double(a)
    b = a * 2
endfunction

function x = untouched(x)
endfunction

assert(bump(5) == 6)
v = [1, 2, 3]
w = bump(v)
assert(w[0] == 2 && w[2] == 4 && v[0] == 1)
[p, q] = keep_and_double(3)
assert(p == 3 && q == 6)
assert(untouched(7) == 7)
print "same-name outputs ok"
