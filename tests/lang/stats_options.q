% unique's options, histc along a dimension and reshape with [] (rt_stats.c,
% rt_builtins.c) against plain loops.

seed(11)
x = randi([0, 9], 1, 60)
x = reshape(x, [60])
n = numel(x)

% ---- unique(x, "stable"): values in the order of first occurrence ----
[u, ia, ic] = unique(x, "stable")
seen = zeros(10)
k = 0
for p = 0..n-1                                % the plain loop: first visits in order
    if seen[x[p]] == 0
        seen[x[p]] = 1
        assert(u[k] == x[p] && ia[k] == p)
        k += 1
    endif
endfor
assert(k == numel(u))
for p = 0..n-1
    assert(u[ic[p]] == x[p])
endfor
assert(numel(unique(x, "stable")) == k)

% ---- unique(x, "last"): the last occurrence, values ascending ----
[u2, ia2, ic2] = unique(x, "sorted", "last")
for q = 0..numel(u2)-1
    assert(x[ia2[q]] == u2[q])
    for p = ia2[q]+1..n-1
        assert(x[p] != u2[q])                 % none after the one i names
    endfor
    if q > 0
        assert(u2[q-1] < u2[q])
    endif
endfor
for p = 0..n-1
    assert(u2[ic2[p]] == x[p])
endfor
[u3, ia3, ic3] = unique(x, "last", "stable")  % both: order by first occurrence, last index
for q = 0..numel(u3)-1
    assert(u3[q] == u[q] && x[ia3[q]] == u3[q])
    for p = ia3[q]+1..n-1
        assert(x[p] != u3[q])
    endfor
endfor
z = unique([NaN, 2, NaN, 1, 2], "stable")     % NaNs stay distinct
assert(numel(z) == 4 && isnan(z[0]) && z[1] == 2 && isnan(z[2]) && z[3] == 1)

% ---- histc along a dimension ----
A = randi([0, 5], 7, 4)
edges = [0, 2, 4, 5]
c0 = histc(A, edges, 0)                       % per column: 4 x 4
c1 = histc(A, edges, 1)                       % per row: 7 x 4
assert(size(c0, 0) == 4 && size(c0, 1) == 4 && size(c1, 0) == 7 && size(c1, 1) == 4)
for b = 0..3
    for j = 0..3
        cnt = 0
        for i = 0..6
            v = A[i, j]
            inb = b < 3 ? (v >= edges[b] && v < edges[b+1]) : v == edges[3]
            cnt += inb ? 1 : 0
        endfor
        assert(c0[b, j] == cnt)
    endfor
    for i = 0..6
        cnt = 0
        for j = 0..3
            v = A[i, j]
            inb = b < 3 ? (v >= edges[b] && v < edges[b+1]) : v == edges[3]
            cnt += inb ? 1 : 0
        endfor
        assert(c1[i, b] == cnt)
    endfor
endfor
total = histc(A, edges)                       % all of A: the sum of the columns' counts
for b = 0..3
    assert(total[b] == sum(c0[b, :]))
endfor
[c2, bin] = histc(A, edges, 0)
assert(sum(c2 != c0) == 0 && size(bin, 0) == 7)
c3 = histc(x, [0, 5, 9], 2)                   % a dimension past the rank: each element alone
assert(size(c3, 2) == 3)

% ---- reshape with [] ----
v = 0..23
B = reshape(v, 4, [])
assert(size(B, 0) == 4 && size(B, 1) == 6)
C = reshape(v, [], 2, 3)
assert(size(C, 0) == 4 && size(C, 1) == 2 && size(C, 2) == 3)
for i = 0..3
    for j = 0..5
        assert(B[i, j] == v[i * 6 + j])       % the row-major order is kept
    endfor
endfor
D = reshape(C, 3, [], 2)                      % [] in the middle
assert(size(D, 1) == 4 && D[2, 3, 1] == 23)
