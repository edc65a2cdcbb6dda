% sort, unique and histc (rt_stats.c) against plain loops: sort gives an ordered
% permutation, stable for ties; unique's three outputs satisfy u == x[i] and x == u[j];
% histc counts as a loop over the bins does.

function [] = check_sorted_perm(x, s, idx, down)
    n = numel(x)
    assert(numel(s) == n && numel(idx) == n)
    seen = zeros(n)
    for k = 0..n-1
        assert(s[k] == x[idx[k]])             % the values come from x at idx
        seen[idx[k]] += 1
    endfor
    for k = 0..n-1
        assert(seen[k] == 1)                   % idx is a permutation of 0..n-1
    endfor
    for k = 1..n-1
        if down
            assert(s[k-1] >= s[k])
        else
            assert(s[k-1] <= s[k])
        endif
        if s[k-1] == s[k]
            assert(idx[k-1] < idx[k])          % ties keep their order (stable)
        endif
    endfor
end

seed(7)
x = randi([0, 20], 1, 200)                 % many ties
x = reshape(x, [200])
[s, idx] = sort(x)
check_sorted_perm(x, s, idx, false)
[s, idx] = sort(x, "descend")
check_sorted_perm(x, s, idx, true)
s2 = sort(x)                               % one output: the values alone
assert(numel(s2) == 200 && s2[0] <= s2[199])

% scalar data, with an explicit dimension on a vec (dimension 1 runs along it)
r = randn(300)
[s, idx] = sort(r, 1)
check_sorted_perm(r, s, idx, false)
assert(sum(s) - sum(r) < 1e-3 && sum(s) - sum(r) > -1e-3)
t = sort(r, 0)                             % across a vec (its dimension 0 has length 1): unchanged
for k = 0..299
    assert(t[k] == r[k])
endfor

% a matrix: by default along dimension 0 (each column), and along 1 (each row)
A = reshape(randi(9, 1, 35), [5, 7])
[S, I] = sort(A)
for j = 0..6
    for i = 0..4
        assert(S[i, j] == A[I[i, j], j])
        if i > 0
            assert(S[i-1, j] <= S[i, j])
        endif
    endfor
endfor
[S, I] = sort(A, 1, "descend")
for i = 0..4
    for j = 0..6
        assert(S[i, j] == A[i, I[i, j]])
        if j > 0
            assert(S[i, j-1] >= S[i, j])
        endif
    endfor
endfor

% a cube along its last dimension
C = randn(3, 4, 5)
S = sort(C, 2)
for i = 0..2
    for j = 0..3
        for k = 1..4
            assert(S[i, j, k-1] <= S[i, j, k])
        endfor
        assert(abs(sum(S[i, j, :]) - sum(C[i, j, :])) < 1e-4)
    endfor
endfor

% NaN: last when ascending, first when descending (MATLAB's order)
y = [3, NaN, 1, 2]
[s, idx] = sort(y)
assert(s[0] == 1 && s[1] == 2 && s[2] == 3 && isnan(s[3]) && idx[3] == 1)
s = sort(y, "descend")
assert(isnan(s[0]) && s[1] == 3 && s[3] == 1)

% int arrays stay int; empty arrays give empty arrays
xi = int([5, -2, 7, -2])
si = sort(xi)
assert(si[0] == -2 && si[1] == -2 && si[2] == 5 && si[3] == 7)
assert(numel(sort([])) == 0)
[e, ei] = sort([])
assert(numel(e) == 0 && numel(ei) == 0)

% ---- unique ----
[u, ia, ic] = unique(x)
nu = numel(u)
for k = 1..nu-1
    assert(u[k-1] < u[k])                      % ascending and distinct
endfor
for k = 0..nu-1
    assert(x[ia[k]] == u[k])
    first = 0
    while x[first] != u[k]
        first += 1
    endwhile
    assert(ia[k] == first)                     % the first occurrence
endfor
for k = 0..numel(x)-1
    assert(u[ic[k]] == x[k])
endfor
% the count of distinct values, by a loop over 0..20
distinct = 0
for v = 0..20
    found = 0
    for k = 0..numel(x)-1
        if x[k] == v
            found = 1
        endif
    endfor
    distinct += found
endfor
assert(nu == distinct)
assert(numel(unique([])) == 0)
w = unique([[2.5, 1], [1, 2.5]])           % a matrix gives a vec
assert(numel(w) == 2 && w[0] == 1 && w[1] == 2.5)
z = unique([NaN, 1, NaN])                  % NaNs are distinct, last
assert(numel(z) == 3 && z[0] == 1 && isnan(z[1]) && isnan(z[2]))

% ---- histc ----
data = randn(500) * 2
edges = -3..0.5..3
[n, bin] = histc(data, edges)
m = numel(edges)
assert(numel(n) == m)
for b = 0..m-1
    cnt = 0
    for k = 0..499
        inside = b < m - 1 ? data[k] >= edges[b] && data[k] < edges[b+1] : data[k] == edges[b]
        if inside
            cnt += 1
        endif
    endfor
    assert(n[b] == cnt)
endfor
for k = 0..499
    if bin[k] >= 0
        assert(data[k] >= edges[bin[k]])
        if bin[k] < m - 1
            assert(data[k] < edges[bin[k] + 1])
        endif
    else
        assert(data[k] < -3 || data[k] > 3)
    endif
endfor
h = histc([0, 1, 1, 2, 5], [0, 1, 2])      % the last bin holds x == 2 only
assert(h[0] == 1 && h[1] == 2 && h[2] == 1)
