% Reductions along a dimension of an element-wise expression (sum(e, d), mean, prod,
% max(e, [], d), min): on cpu and cuda one kernel, one thread per element of the result.
% Shapes follow the runtime's rule (docs/library.md); values are checked against plain
% loops: floats within 1e-5 relative (the kernel adds in the declared precision, the
% runtime in double), ints exactly.

function [] = near(a, b, tol)
    assert(numel(a) == numel(b))
    for k = 0..numel(a) - 1
        if abs(a[k] - b[k]) > tol * (1 + abs(b[k]))
            error("element ", k, ": ", a[k], " vs ", b[k])
        endif
    endfor
endfunction

h = 48
w = 40
x = rand(h, w)
y = rand(h, w) - 0.5

% down the columns (dim 0) and along the rows (dim 1)
s0 = sum(x .* y, 0)
s1 = sum(x .* y, 1)
assert(size(s0) == [w])
assert(size(s1) == [h, 1])
r0 = zeros(w)
r1 = zeros(h)
for i = 0..h - 1
    for j = 0..w - 1
        r0[j] += x[i, j] * y[i, j]
        r1[i] += x[i, j] * y[i, j]
    endfor
endfor
near(s0, r0, 1e-5)
near(s1, r1, 1e-5)

m1 = mean((x - y).^2, 1)
for i = 0..h - 1
    acc = 0.0
    for j = 0..w - 1
        acc += (x[i, j] - y[i, j])^2
    endfor
    r1[i] = acc / w
endfor
near(m1, r1, 1e-5)

p0 = prod(1 + 0.01 * x, 0)
for j = 0..w - 1
    acc = 1.0
    for i = 0..h - 1
        acc *= 1 + 0.01 * x[i, j]
    endfor
    r0[j] = acc
endfor
near(p0, r0, 1e-5)

mx = max(abs(y), [], 1)
mn = min(x - y, [], 0)
for i = 0..h - 1
    best = -1.0
    for j = 0..w - 1
        best = max(best, abs(y[i, j]))
    endfor
    assert(mx[i] == best)
endfor
for j = 0..w - 1
    best = 1e9
    for i = 0..h - 1
        best = min(best, x[i, j] - y[i, j])
    endfor
    assert(abs(mn[j] - best) < 1e-6)
endfor

% ints: exact, int results (mean gives scalars)
n = int(floor(x * 1000)) - 500
si = sum(n .* n, 0)
mi = max(n, [], 1)
ai = mean(n, 0)
for j = 0..w - 1
    t = 0
    for i = 0..h - 1
        t += n[i, j] * n[i, j]
    endfor
    assert(si[j] == t)
    assert(abs(ai[j] - t * 0 - sum(n[:, j]) / h) < 1e-3)
endfor
for i = 0..h - 1
    assert(mi[i] == max(n[i, :]))
endfor

% NaNs are skipped by max and min, as in the runtime
q = copy(x)
q[3, 5] = 0 / 0
qm = max(q * 2, [], 0)
assert(qm[5] == max(q[:, 5] * 2))
assert(qm[5] == qm[5])   % not NaN

% a cube along each dimension; a vec (a 1 x N row); a dimension past the rank
c = rand(12, 10, 9)
for d = 0..2
    cs = sum(c * 2, d)
    assert(abs(sum(cs) - 2 * sum(c)) < 1e-3 * sum(c))
endfor
c2 = sum(c + 1, 2)
assert(size(c2) == [12, 10])
for i = 0..11
    for j = 0..9
        acc = 0.0
        for k = 0..8
            acc += c[i, j, k] + 1
        endfor
        assert(abs(c2[i, j] - acc) < 1e-5 * acc)
    endfor
endfor
v = rand(3000)
vs = sum(v .* 2, 1)
assert(numel(vs) == 1 && abs(vs[0] - 2 * sum(v)) < 1e-3 * sum(v))
vc = sum(v .* 2, 0)
assert(size(vc) == [3000])
near(vc, v * 2, 1e-6)
past = sum(x * 3, 4)
assert(size(past) == size(x))
near(past, x * 3, 1e-6)

% of a variable, and inside an element-wise statement
rm = mean(x, 1)
rs = 2 * sum(x, 0) + 1
for i = 0..h - 1
    assert(abs(rm[i, 0] - mean(x[i, :])) < 1e-5)
endfor
for j = 0..w - 1
    assert(abs(rs[j] - (2 * sum(x[:, j]) + 1)) < 1e-4 * rs[j])
endfor

% an empty reduced dimension and empty results: the runtime's rules
e = zeros(0, 1500)
es = sum(e * 2, 0)
assert(size(es) == [1500] && sum(es) == 0)
ez = sum(zeros(1500, 0) * 2, 0)
assert(numel(ez) == 0)
print "ok"
