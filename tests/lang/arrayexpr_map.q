% Host array expressions (element-wise statements): on --target cpu and cuda each statement
% below is one generated kernel (interp_arrayexpr.c); on interp the runtime's operators run
% them. Every result is checked against a plain loop over the elements. Sizes are above
% OQ_ARRAY_KERNEL_MIN (1024 elements).

function [] = near(a, b, tol)
    assert(size(a) == size(b))
    for k = 0..numel(a) - 1
        if abs(a[k] - b[k]) > tol * (1 + abs(b[k]))
            error("element ", k, ": ", a[k], " vs ", b[k])
        endif
    endfor
endfunction

function [] = exact(a, b)
    assert(size(a) == size(b))
    for k = 0..numel(a) - 1
        assert(a[k] == b[k])
    endfor
endfunction

h = 40
w = 30
x = rand(h, w)
y = rand(h, w) - 0.5
r = zeros(h, w)

% arithmetic, math functions, scalar broadcasting
a = x .* y + 0.5 * cos(x) - y ./ (x + 1) + x.^2
for k = 0..numel(x) - 1
    r[k] = x[k] * y[k] + 0.5 * cos(x[k]) - y[k] / (x[k] + 1) + x[k] * x[k]
endfor
near(a, r, 1e-5)

a = max(sqrt(x.^2 + y.^2), 0.3) + min(x, y) - abs(y) + floor(x * 10) - ceil(y * 3) + round(x * 7)
for k = 0..numel(x) - 1
    r[k] = max(sqrt(x[k]^2 + y[k]^2), 0.3) + min(x[k], y[k]) - abs(y[k]) + floor(x[k] * 10) - ceil(y[k] * 3) + round(x[k] * 7)
endfor
near(a, r, 1e-5)

a = exp(-x) + log(x + 1) + tanh(y) + atan2(y, x) + clamp(y, -0.2, 0.2) + frac(x * 3) + sign(y)
for k = 0..numel(x) - 1
    r[k] = exp(-x[k]) + log(x[k] + 1) + tanh(y[k]) + atan2(y[k], x[k]) + clamp(y[k], -0.2, 0.2) + frac(x[k] * 3) + sign(y[k])
endfor
near(a, r, 1e-5)

% scalars on either side, unary minus, mod
s = 3
a = s * x - y / s + 2 .^ x - (-x) + mod(x * 10, 3)
for k = 0..numel(x) - 1
    r[k] = s * x[k] - y[k] / s + 2 ^ x[k] + x[k] + mod(x[k] * 10, 3)
endfor
near(a, r, 1e-5)

% comparisons give int arrays of 0 and 1
c = (x > 0.5) + (y <= 0) * 2 + (x == x) * 4
ri = zeros(h, w)
for k = 0..numel(x) - 1
    ri[k] = (x[k] > 0.5) + (y[k] <= 0) * 2 + 4
endfor
exact(c, ri)

% ints stay ints; int ./ int is real
n = int(floor(x * 100))
m = int(floor(y * 100))
ni = n .* m + 3 * n - m
for k = 0..numel(n) - 1
    ri[k] = n[k] * m[k] + 3 * n[k] - m[k]
endfor
exact(ni, ri)
q = n ./ (abs(m) + 1)
for k = 0..numel(n) - 1
    r[k] = n[k] / (abs(m[k]) + 1)
endfor
near(q, r, 1e-6)

% uint8 images: arithmetic widens as the runtime's operators do
img = vec[uint8](numel(x))
for k = 0..numel(x) - 1
    img[k] = floor(x[k] * 255)
endfor
g = img * 2 + 1
gi = zeros(numel(x))
for k = 0..numel(img) - 1
    gi[k] = img[k] * 2 + 1
endfor
exact(g, gi)

% compound assignment on a whole array
acc = x
acc += 2 * y
acc .*= x
for k = 0..numel(x) - 1
    r[k] = (x[k] + 2 * y[k]) * x[k]
endfor
near(acc, r, 1e-5)
near(x, r ./ r .* x, 1e-5)   % x itself is unchanged (acc was an alias)

% the target's own array is overwritten when nothing else holds it: every element written
p = ones(h, w) * NaN
p = x + y
for k = 0..numel(x) - 1
    r[k] = x[k] + y[k]
endfor
near(p, r, 1e-6)

% an alias keeps the old values
old = p
p = p * 2
near(old, r, 1e-6)
near(p, r * 2, 1e-6)

% cubes
c3 = rand(12, 10, 9)
d3 = c3 .* c3 - 1
r3 = zeros(12, 10, 9)
for k = 0..numel(c3) - 1
    r3[k] = c3[k] * c3[k] - 1
endfor
near(d3, r3, 1e-6)

% complex arrays
z = complex(x, y)
zz = z .* z + 1i * z
for k = 0..numel(z) - 1
    assert(abs(zz[k] - (z[k] * z[k] + 1i * z[k])) < 1e-5)
endfor
re = real(z) + imag(z) + abs(z)
for k = 0..numel(z) - 1
    r[k] = x[k] + y[k] + sqrt(x[k]^2 + y[k]^2)
endfor
near(re, r, 1e-5)

% vectors
v = rand(2000)
u = v * 2 + 1
for k = 0..1999
    assert(abs(u[k] - (v[k] * 2 + 1)) < 1e-5)
endfor

% empty arrays and small ones run in the runtime: same results
e = zeros(0)
assert(numel(e * 2 + 1) == 0)
small = [1, 2, 3] .* [4, 5, 6] + 1
assert(small[0] == 5 && small[1] == 11 && small[2] == 19)
print "ok"
