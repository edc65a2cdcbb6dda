% Element-wise operators; a scalar broadcasts over an array.

a = [1, 2, 3, 4]
b = [10, 20, 30, 40]
n = numel(a)

s = a + 1
d = 10 - a
p = a * 3
q = a / 2
e = a .* b
f = b ./ a
g = a .^ 2
h = 2 .^ a
k = a + b
neg = -a
for i = 0..n-1
    assert(s[i] == a[i] + 1)
    assert(d[i] == 10 - a[i])
    assert(p[i] == 3 * a[i])
    assert(q[i] == a[i] / 2)
    assert(e[i] == a[i] * b[i])
    assert(f[i] == 10)
    assert(g[i] == a[i] * a[i])
    assert(h[i] == 2^a[i])
    assert(k[i] == 11 * a[i])
    assert(neg[i] == -a[i])
endfor

% comparisons are element-wise and give 0/1 arrays
c = a > 2
for i = 0..n-1
    assert(c[i] == (a[i] > 2 ? 1 : 0))
endfor
assert(sum(a >= 2) == 3)

% an array is true when all its elements are
assert(a == a)
assert(a > 0)
ok = 0
if a > 1
    ok = 1
endif
assert(ok == 0)

% matrices
M = [[1, 2], [3, 4]]
M2 = M .* M + 1
for i = 0..1
    for j = 0..1
        assert(M2[i, j] == M[i, j] * M[i, j] + 1)
    endfor
endfor
half = M / 2
assert(half[1, 1] == 2 && half[0, 0] == 0.5)

% element-wise maximum and minimum against a scalar
mx = max(a, 2.5)
mn = min(a, 2.5)
for i = 0..n-1
    assert(mx[i] == (a[i] > 2.5 ? a[i] : 2.5))
    assert(mn[i] == (a[i] < 2.5 ? a[i] : 2.5))
endfor

% functions map over arrays
r = sqrt([1, 4, 9, 16])
for i = 0..3
    assert(r[i] == i + 1)
endfor
ab = abs([-3, 0, 2.5])
assert(ab[0] == 3 && ab[1] == 0 && ab[2] == 2.5)
print "broadcasting: ok"
