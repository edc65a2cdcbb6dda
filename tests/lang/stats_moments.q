% median, mode, var, std, and max/min with their index (rt_stats.c) against plain loops:
% the median by counting ranks, the mode by counting, var by its definition.

% the k-th smallest element (0-based) by counting, O(n^2)
function y = kth(x, k)
    n = numel(x)
    y = NaN
    for i = 0..n-1
        below = 0
        same = 0
        for j = 0..n-1
            if x[j] < x[i]
                below += 1
            elseif x[j] == x[i]
                same += 1
            endif
        endfor
        if below <= k && k < below + same
            y = x[i]
        endif
    endfor
end

function m = median_ref(x)
    n = numel(x)
    if mod(n, 2) == 1
        m = kth(x, (n - 1) / 2)
    else
        m = (kth(x, n / 2 - 1) + kth(x, n / 2)) / 2
    endif
end

function v = var_ref(x, by_n)
    n = numel(x)
    mu = 0.0
    for k = 0..n-1
        mu += x[k]
    endfor
    mu = mu / n
    acc = 0.0
    for k = 0..n-1
        acc += (x[k] - mu)^2
    endfor
    v = by_n ? acc / n : acc / (n - 1)
end

seed(11)
for n = [1, 2, 5, 8, 33, 64]
    x = reshape(randn(n), [n])
    assert(median(x) == median_ref(x))
    xi = reshape(randi([0, 6], 1, n), [n])   % ties
    assert(median(xi) == median_ref(xi))
endfor
assert(median([4, 1, 3, 2]) == 2.5)
assert(isnan(median([1, NaN, 3])))            % NaN propagates (MATLAB's default)
assert(isnan(median([])))
assert(median(7) == 7)

% along a dimension
A = reshape(randn(42), [6, 7])
m0 = median(A, 0)
m1 = median(A, 1)
assert(numel(m0) == 7 && size(m1, 0) == 6 && size(m1, 1) == 1)
for j = 0..6
    assert(m0[j] == median_ref(A[:, j]))
endfor
for i = 0..5
    assert(m1[i, 0] == median_ref(A[i, :]))
endfor

% ---- mode ----
x = [4, 2, 2, 7, 4, 1, 9]                     % 2 and 4 twice: the smaller wins
assert(mode(x) == 2)
[m, f] = mode(x)
assert(m == 2 && f == 2)
r = randi(5, 1, 100)
[m, f] = mode(r)
best = 0
bestc = 0
for v = 1..5
    c = 0
    for k = 0..99
        if r[k] == v
            c += 1
        endif
    endfor
    if c > bestc
        best = v
        bestc = c
    endif
endfor
assert(m == best && f == bestc)
assert(mode([NaN, 3, NaN]) == 3)               % NaNs are left out
assert(isnan(mode([])))
M = [[1, 2, 2], [3, 3, 1], [1, 5, 1]]
mc = mode(M, 0)
assert(mc[0] == 1 && mc[1] == 2 && mc[2] == 1)

% ---- var, std ----
for n = [2, 3, 10, 100]
    x = reshape(randn(n) * 3 + 1, [n])
    assert(abs(var(x) - var_ref(x, false)) < 1e-4 * var_ref(x, false))
    assert(abs(var(x, 1) - var_ref(x, true)) < 1e-4 * var_ref(x, true))
    assert(abs(std(x) - sqrt(var_ref(x, false))) < 1e-4 * std(x))
    assert(abs(var(x, 1) * n - var(x) * (n - 1)) < 1e-3 * var(x) * n)
endfor
assert(var(ones(10) * 3) == 0 && std(5) == 0 && var([2]) == 0)
assert(abs(var([1, 2, 3, 4]) - 5 / 3) < 1e-6)
assert(abs(std([2, 4, 4, 4, 5, 5, 7, 9], 1) - 2) < 1e-6)   % the textbook example
assert(isnan(var([])))
assert(var(int([1, 2, 3])) == 1)
% complex: the mean of |x - mean|^2
assert(abs(var([1i, -1i], 1) - 1) < 1e-6)
B = reshape(randn(24) + 2, [4, 6])
v0 = var(B, 0, 0)
s1 = std(B, [], 1)
for j = 0..5
    assert(abs(v0[j] - var_ref(B[:, j], false)) < 1e-4 * v0[j])
endfor
for i = 0..3
    assert(abs(s1[i, 0] - sqrt(var_ref(B[i, :], false))) < 1e-4 * s1[i, 0])
endfor

% ---- max and min with their index ----
x = [3, 9, -1, 9, 0, -1]
[m, i] = max(x)
assert(m == 9 && i == 1)                        % the first of equal maxima
[m, i] = min(x)
assert(m == -1 && i == 2)
assert(max(x) == 9 && min(x) == -1)
[m, i] = max([NaN, 2, 5, NaN])                  % NaNs are skipped
assert(m == 5 && i == 2)
C = reshape(randn(60), [3, 4, 5])
[m, i] = max(C)                                 % over all elements: a linear index
best = -1e30
at = -1
for k = 0..59
    if C[k] > best
        best = C[k]
        at = k
    endif
endfor
assert(m == best && i == at)
A = reshape(randi(20, 1, 42), [6, 7])
[m0, i0] = max(A, [], 0)
[m1, i1] = min(A, [], 1)
assert(numel(m0) == 7 && size(m1, 0) == 6)
for j = 0..6
    best = A[0, j]
    at = 0
    for i = 1..5
        if A[i, j] > best
            best = A[i, j]
            at = i
        endif
    endfor
    assert(m0[j] == best && i0[j] == at)
endfor
for i = 0..5
    best = A[i, 0]
    at = 0
    for j = 1..6
        if A[i, j] < best
            best = A[i, j]
            at = j
        endif
    endfor
    assert(m1[i, 0] == best && i1[i, 0] == at)
endfor
mm = min(C, [], 2)                              % 3 x 4
assert(size(mm, 0) == 3 && size(mm, 1) == 4)
assert(mm[1, 2] == min(C[1, 2, :]))
