% Reductions of host array expressions (sum, mean, prod, min, max of one argument): one
% fused kernel each on cpu and cuda; checked against plain loops.

h = 50
w = 40
x = rand(h, w)
y = rand(h, w) - 0.5

s = 0.0
for k = 0..numel(x) - 1
    s += x[k] * y[k]
endfor
assert(abs(sum(x .* y) - s) < 1e-3)

s = 0.0
for k = 0..numel(x) - 1
    s += (x[k] - y[k])^2
endfor
assert(abs(mean((x - y).^2) - s / numel(x)) < 1e-5)

mx = -1e30
mn = 1e30
for k = 0..numel(x) - 1
    mx = max(mx, abs(y[k]))
    mn = min(mn, x[k] - y[k])
endfor
assert(max(abs(y)) == mx)
assert(min(x - y) == mn)

p = 1.0
for k = 0..99
    p *= 1 + x[k] / 100
endfor
v = x[0, :]
assert(numel(v) == w)

% int reductions are exact and stay ints
n = int(floor(x * 1000))
t = 0
for k = 0..numel(n) - 1
    t += n[k] * n[k]
endfor
assert(sum(n .* n) == t)
assert(max(n - 500) == max(n) - 500)

% a reduction inside an element-wise statement
z = x - mean(x)
assert(abs(sum(z)) < 1e-2)

% in expressions and conditions
if sum(x > 2) == 0
    ok = true
else
    ok = false
endif
assert(ok)
count = sum(x > 0.5)
c = 0
for k = 0..numel(x) - 1
    c += x[k] > 0.5
endfor
assert(count == c)

% slices as operands
c3 = rand(30, 40, 3)
g = c3[:, :, 1] .* 2 + c3[:, :, 0]
for i = 0..29
    for j = 0..39
        assert(abs(g[i, j] - (c3[i, j, 1] * 2 + c3[i, j, 0])) < 1e-5)
    endfor
endfor
assert(size(g) == [30, 40])
A = rand(1200, 50)
col = A[0..1199, 7] * 3 + 1
assert(size(col) == [1200, 1])
for i = 0..1199
    assert(abs(col[i] - (A[i, 7] * 3 + 1)) < 1e-5)
endfor
sub = A[1..2..59, 10..49] - A[0..2..58, 0..39]
assert(size(sub) == [30, 40])
for i = 0..29
    for j = 0..39
        assert(abs(sub[i, j] - (A[1 + 2 * i, 10 + j] - A[2 * i, j])) < 1e-6)
    endfor
endfor
B = rand(20, 1500)
k = 3
q = sum(B[k, :] .* B[k + 1, :])
s = 0.0
for j = 0..1499
    s += B[k, j] * B[k + 1, j]
endfor
assert(abs(q - s) < 1e-4 * abs(s))
print "ok"

% assignment into slices, in place
y = zeros(40, 36, 3)
a = rand(40, 36)
b = rand(40, 36)
alias = y
y[:, :, 1] = a .* b
y[:, :, 2] = 7
y[:, :, 1] += a
y[0..2..39, :, 0] = b[0..2..39, :] * 2
for i = 0..39
    for j = 0..35
        assert(abs(y[i, j, 1] - (a[i, j] * b[i, j] + a[i, j])) < 1e-5)
        assert(y[i, j, 2] == 7)
        assert(abs(y[i, j, 0] - (i mod 2 == 0 ? 2 * b[i, j] : 0)) < 1e-6)
        assert(alias[i, j, 2] == 7)   % the same array: written in place
    endfor
endfor
print "ok"
