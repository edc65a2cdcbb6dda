% Fusion of consecutive host array statements (transform_arrayexpr.c, fuse_next): `t = e1`
% followed by a statement that reads t once becomes one kernel computing e1 in place (on
% cpu and cuda; the interpreter runs the statements one by one). Each result is checked
% against a plain loop; floats within 1e-5 relative (the kernel keeps e1 in registers, the
% runtime rounds it to float), ints exactly. Sizes are above OQ_ARRAY_KERNEL_MIN.

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

h = 48
w = 40
x = rand(h, w)
y = rand(h, w) - 0.5

% a chain of four statements: one kernel
t = x .* y
u = t + 0.5 * cos(x)
v = u - y
r = v .* 2
ref = zeros(h, w)
for k = 0..numel(x) - 1
    ref[k] = ((x[k] * y[k] + 0.5 * cos(x[k])) - y[k]) * 2
endfor
near(r, ref, 1e-5)

% into a reduction: mean((x - y).^2)
d = x - y
s = sum(d .^ 2)
acc = 0.0
for k = 0..numel(x) - 1
    acc += (x[k] - y[k])^2
endfor
assert(abs(s - acc) < 1e-4 * acc)

% two producers feeding one statement
p1 = x .* 3
p2 = y + 1
q = p1 - p2
for k = 0..numel(x) - 1
    ref[k] = x[k] * 3 - (y[k] + 1)
endfor
near(q, ref, 1e-5)

% ints stay exact
n = int(floor(x * 1000))
m = n .* 3
kk = m + n - 7
for k = 0..numel(n) - 1
    assert(kk[k] == n[k] * 4 - 7)
endfor

% the update of a time-step loop: g never exists, x changes each iteration
xs = x
for it = 1..4
    g = xs .* 0.25
    xs = xs - g
endfor
for k = 0..numel(x) - 1
    ref[k] = x[k] * 0.75^4
endfor
near(xs, ref, 1e-5)

% a producer of a number (no array operand): the consumer still runs, with t a number
a = 3.0
step = a / 4
z = x - step * y
for k = 0..numel(x) - 1
    ref[k] = x[k] - 0.75 * y[k]
endfor
near(z, ref, 1e-5)

% small arrays run in the runtime, fused statements included
sx = x[0..3, 0..3]
st = sx .* 2
su = st + 1
for i = 0..3
    for j = 0..3
        assert(abs(su[i, j] - (x[i, j] * 2 + 1)) < 1e-6)
    endfor
endfor

% not fused: t read again later, an output, read by a closure; each still right
t2 = x + 1
c2 = t2 .* 2
near(t2, x + 1, 1e-6)
near(c2, (x + 1) * 2, 1e-5)

function out = twice_plus(a)
    out = a .* 2
    b = out + 1
    out = b
endfunction
near(twice_plus(x), x * 2 + 1, 1e-5)

cap = x .* 4
f = () -> sum(cap)
e = cap - 1
assert(abs(f() - sum(x) * 4) < 1e-2)
near(e, x * 4 - 1, 1e-5)

% a slice target written in place by the consumer
cube = zeros(h, w, 2)
pr = x .* y
cube[:, :, 1] = pr + 1
for i = 0..h - 1
    for j = 0..w - 1
        assert(abs(cube[i, j, 1] - (x[i, j] * y[i, j] + 1)) < 1e-5)
        assert(cube[i, j, 0] == 0)
    endfor
endfor

% the consumer assigns the producer's operand
xa = copy(x)
ta = xa .* 2
xa = ta + 1
near(xa, x * 2 + 1, 1e-5)

% inside a function, in a loop, with complex values
function r = chain(a, b)
    c = complex(a, b)
    sq = c .* (2 * c)
    r = real(sq) + imag(sq)
endfunction
cz = chain(x, y)
for k = 0..numel(x) - 1
    ref[k] = 2 * (x[k]^2 - y[k]^2 + 2 * x[k] * y[k])
endfor
near(cz, ref, 1e-5)

% liveness: a temporary name reused later fuses where its value dies; a value read after
% the loop, by the next iteration, after an if, or as the output does not
for it = 1..2
    tmp = x .* y
    o1 = tmp + 1
endfor
tmp = x - y
o2 = tmp * 2
near(o1, x .* y + 1, 1e-5)
near(o2, (x - y) * 2, 1e-5)

for it = 1..3
    lv = x .* it
    o3 = lv + 1
endfor
near(lv, x * 3, 1e-6)
near(o3, x * 3 + 1, 1e-5)

acc = zeros(h, w)
prev = x .* 0
for it = 1..3
    acc = acc + prev
    prev = x .* it
    o4 = prev + 1
endfor
near(acc, x * 3, 1e-5)
near(o4, x * 3 + 1, 1e-5)

if sum(x) > 0
    br = x .* 5
    o5 = br - 1
endif
near(br, x * 5, 1e-6)

function [r, s] = outs(a)
    r = a .* 2
    s = r + 1
endfunction
[r6, s6] = outs(x)
near(r6, x * 2, 1e-6)
near(s6, x * 2 + 1, 1e-5)

% a temporary reused by a later loop that assigns it first: both fuse; a loop that may not
% run does not hide a later read
for it = 1..2
    w1 = x .* 2
    o7 = w1 + 1
endfor
for it = 1..2
    w1 = y .* 3
    o8 = w1 - 1
endfor
near(o7, x * 2 + 1, 1e-5)
near(o8, y * 3 - 1, 1e-5)
w2 = x .* 4
o9 = w2 + 1
for it = 1..0
    w2 = y
endfor
near(w2, x * 4, 1e-6)
near(o9, x * 4 + 1, 1e-5)

% empty arrays
ex = zeros(0, 5)
et = ex .* 2
eu = et + 1
assert(size(eu) == [0, 5])
print "ok"
