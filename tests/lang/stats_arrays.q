% find, any, all, cumsum, cumprod, diff, circshift, flip, cat, meshgrid, reshape, repmat,
% linspace, dotprod and pow (rt_stats.c, rt_builtins.c) against plain loops and identities.

seed(3)
x = reshape(randi([-3, 3], 1, 50), [50])

% ---- find ----
f = find(x > 0)
cnt = 0
for k = 0..49
    if x[k] > 0
        assert(f[cnt] == k)
        cnt += 1
    endif
endfor
assert(numel(f) == cnt)
f2 = find(x > 0, 3)
assert(numel(f2) == min(3, cnt) && f2[0] == f[0])
assert(numel(find(zeros(5))) == 0)
assert(numel(find(x, 0)) == 0)
A = reshape(randi([0, 1], 1, 20), [4, 5])
[r, c, v] = find(A)
lin = find(A)
for k = 0..numel(lin)-1
    assert(r[k] * 5 + c[k] == lin[k] && A[r[k], c[k]] == 1 && v[k] == 1)
endfor
[r, c] = find([0, 7, 0, 7])                     % a vec is one row
assert(r[0] == 0 && r[1] == 0 && c[0] == 1 && c[1] == 3)

% ---- any, all ----
assert(any(x > 2) == (sum(x > 2) > 0))
assert(all(x > -4) && !all(x > -3 + 0 * x) == (sum(x == -3) > 0))
assert(!any([]) && all([]))                      % empty: MATLAB's answers
assert(any([0, NaN]) && all([NaN, 1]))           % NaN is nonzero
assert(any(1i) && !any(0i))
B = [[0, 0, 1], [0, 0, 0]]
a0 = any(B, 0)
a1 = any(B, 1)
l1 = all(B == 0, 1)
assert(a0[0] == 0 && a0[1] == 0 && a0[2] == 1)
assert(a1[0, 0] == 1 && a1[1, 0] == 0 && l1[0, 0] == 0 && l1[1, 0] == 1)

% ---- cumsum, cumprod, diff ----
cs = cumsum(x)
run = 0
for k = 0..49
    run += x[k]
    assert(cs[k] == run)
endfor
d = diff(cs)                                     % diff undoes cumsum
assert(numel(d) == 49)
for k = 0..48
    assert(d[k] == x[k + 1])
endfor
y = reshape(randn(12) * 0.5 + 1, [12])
cp = cumprod(y)
p = 1.0
for k = 0..11
    p = p * y[k]
    assert(abs(cp[k] - p) < 1e-5 * abs(p))
endfor
assert(cumprod(int([2, 3, 4]))[2] == 24)
M = reshape(randi(9, 1, 12), [3, 4])
C0 = cumsum(M, 0)
C1 = cumprod(M, 1)
for i = 0..2
    for j = 0..3
        s = 0
        for k = 0..i
            s += M[k, j]
        endfor
        pr = 1
        for k = 0..j
            pr *= M[i, k]
        endfor
        assert(C0[i, j] == s && C1[i, j] == pr)
    endfor
endfor
assert(cumsum(5) == 5)
d2 = diff(x, 2)                                  % second differences
for k = 0..47
    assert(d2[k] == x[k + 2] - 2 * x[k + 1] + x[k])
endfor
D0 = diff(M)                                     % along dimension 0: 2 x 4
D1 = diff(M, 1, 1)                               % along dimension 1: 3 x 3
assert(size(D0, 0) == 2 && size(D0, 1) == 4 && size(D1, 0) == 3 && size(D1, 1) == 3)
for i = 0..1
    for j = 0..3
        assert(D0[i, j] == M[i + 1, j] - M[i, j])
    endfor
endfor
for i = 0..2
    for j = 0..2
        assert(D1[i, j] == M[i, j + 1] - M[i, j])
    endfor
endfor
assert(numel(diff(7)) == 0 && numel(diff(x, 60)) == 0)
zc = diff([1 + 1i, 3 - 1i])
assert(zc[0] == 2 - 2i)

% ---- circshift, flip ----
for s = [-7, -1, 0, 2, 50, 53]
    cx = circshift(x, s)
    for k = 0..49
        assert(cx[mod(mod(k + s, 50) + 50, 50)] == x[k])
    endfor
endfor
CM = circshift(M, [1, -1])
for i = 0..2
    for j = 0..3
        assert(CM[mod(i + 1, 3), mod(j + 3, 4)] == M[i, j])
    endfor
endfor
CM1 = circshift(M, 2, 1)
for i = 0..2
    for j = 0..3
        assert(CM1[i, mod(j + 2, 4)] == M[i, j])
    endfor
endfor
assert(circshift([1, 2, 3], [0, 1])[0] == 3)     % a vec is a 1 x N row
lr = fliplr(M)
ud = flipud(M)
for i = 0..2
    for j = 0..3
        assert(lr[i, j] == M[i, 3 - j] && ud[i, j] == M[2 - i, j])
    endfor
endfor
fx = fliplr(x)
for k = 0..49
    assert(fx[k] == x[49 - k])
endfor
assert(flipud(x)[0] == x[0])                      % one row: nothing to flip
Q = reshape(0..23, [2, 3, 4])
F2 = flip(Q, 2)
assert(F2[1, 2, 0] == Q[1, 2, 3] && F2[0, 1, 3] == Q[0, 1, 0])

% ---- cat, vertcat, horzcat ----
P = reshape(1..6, [2, 3])
R = reshape(7..12, [2, 3])
V = vertcat(P, R)
H = horzcat(P, R)
K = cat(2, P, R)
assert(size(V, 0) == 4 && size(V, 1) == 3 && size(H, 0) == 2 && size(H, 1) == 6)
assert(size(K, 0) == 2 && size(K, 1) == 3 && size(K, 2) == 2)
for i = 0..1
    for j = 0..2
        assert(V[i, j] == P[i, j] && V[i + 2, j] == R[i, j])
        assert(H[i, j] == P[i, j] && H[i, j + 3] == R[i, j])
        assert(K[i, j, 0] == P[i, j] && K[i, j, 1] == R[i, j])
    endfor
endfor
hv = horzcat([1, 2], 3, [], [4.5, 5])           % vecs join into a vec; [] is left out
assert(numel(size(hv)) == 1 && numel(hv) == 5 && hv[2] == 3 && hv[3] == 4.5)
vv = vertcat([1, 2], [3, 4])                     % vecs stack as rows
assert(size(vv, 0) == 2 && vv[1, 0] == 3)
col = vertcat(1, 2, 3)                           % numbers: a 3 x 1 column
assert(size(col, 0) == 3 && size(col, 1) == 1 && col[2, 0] == 3)
assert(cat(0, P)[1, 2] == 6)
z = horzcat([1, 2], [1i])
assert(z[2] == 1i)
a8 : vec[uint8] = [1, 2]
b8 : vec[uint8] = [250]
u8 = horzcat(a8, b8)
assert(u8[2] == 250 && u8[0] + 0 == 1)

% ---- meshgrid ----
[X, Y] = meshgrid(0..3, 10..12)
assert(size(X, 0) == 3 && size(X, 1) == 4)
for i = 0..2
    for j = 0..3
        assert(X[i, j] == j && Y[i, j] == 10 + i)
    endfor
endfor
[X, Y, Z] = meshgrid([1, 2], [3, 4, 5], [6, 7, 8, 9])
assert(size(X, 0) == 3 && size(X, 1) == 2 && size(X, 2) == 4)
assert(X[2, 1, 3] == 2 && Y[2, 1, 3] == 5 && Z[2, 1, 3] == 9 && Z[0, 0, 1] == 7)
X1 = meshgrid(0..2)                              % one output, y = x
assert(size(X1, 0) == 3 && X1[2, 1] == 1)

% ---- reshape, repmat: round trips ----
T = reshape(randn(24), [2, 3, 4])
T2 = reshape(reshape(T, [4, 6]), [2, 3, 4])
for k = 0..23
    assert(T2[k] == T[k])
endfor
Rp = repmat(P, [2, 3])
for i = 0..3
    for j = 0..8
        assert(Rp[i, j] == P[mod(i, 2), mod(j, 3)])
    endfor
endfor

% ---- linspace, dotprod, pow ----
l = linspace(-1, 2, 7)
for k = 0..6
    assert(abs(l[k] - (-1 + 0.5 * k)) < 1e-6)
endfor
assert(numel(linspace(0, 1)) == 100 && linspace(0, 1)[99] == 1)
assert(numel(linspace(0, 1, 0)) == 0 && linspace(3, 4, 1)[0] == 4)
a = randn(40)
b = randn(40)
dp = 0.0
for k = 0..39
    dp += a[k] * b[k]
endfor
assert(abs(dotprod(a, b) - dp) < 1e-4 * (1 + abs(dp)))
assert(dotprod(int([1, 2, 3]), int([4, 5, 6])) == 32)
assert(dotprod([1i, 2], [1i, 1]) == 1)           % no conjugate: 1i * 1i + 2
assert(dotprod(P, 1..6) == 91)                   % as many elements, shapes differ
pw = pow(abs(a) + 1, 1.5)
for k = 0..39
    assert(abs(pw[k] - exp(1.5 * log(abs(a[k]) + 1))) < 1e-4 * pw[k])
endfor
assert(pow(2, 10) == 1024 && pow([2, 3], [3, 2])[1] == 9)
