% Reductions along a dimension at sizes where the C back end runs them as rows of lanes
% (emit_c.c along_loop: up to 256 positions of the result advance together, one step of
% the reduced dimension at a time). Each lane still adds its values in order, so with one
% pass per reduction (OQ_DEV_ALONG_LANES=1: tests/run.sh runs this so) the result must
% equal, bit for bit, a hand-written kernel with one thread walking each column or row where
% the reduction is a kernel adding in float (cpu, cuda: sum(p, 0) of a column [2^24, 1, 1,
% ...] stays 2^24). Where the runtime adds in double (interp), or the reduced runs are split
% among lanes of their own (launch_along: another order of the additions), within 1e-5.

function [] = __kernel__ walk(x : cube'unchecked, y : cube'unchecked, r : cube'unchecked, d : int, op : int, pos : ivec3)
    n = size(x, d)
    dv = [d == 0, d == 1, d == 2]
    v = x[pos] * y[pos] + 0.25
    acc = v
    for k = 1..n - 1
        v = x[pos + k * dv] * y[pos + k * dv] + 0.25
        if op != 1
            acc = acc + v
        else
            acc = v == v && (acc != acc || v > acc) ? v : acc
        endif
    endfor
    r[pos] = op == 2 ? acc / n : acc
endfunction

% the reduction of x .* y + 0.25 along d, by walk (as a cube [a, b, c], d reduced)
function r = walked(x, y, d, op)
    s = size(x, 0..2)
    s[d] = 1
    r = zeros(s)
    parallel_do(s, x, y, r, d, op, walk)
endfunction

function [] = same(a, b, what)
    p = ones(1100, 1)
    p[0] = 16777216
    probe = sum(p * 1, 0)
    tol = probe[0] == 16777216 ? 0 : 1e-5
    assert(numel(a) == numel(b))
    for k = 0..numel(a) - 1
        if !(abs(a[k] - b[k]) <= tol * abs(b[k]) || (a[k] != a[k] && b[k] != b[k]))
            error(what, ": element ", k, ": ", a[k], " vs ", b[k])
        endif
    endfor
endfunction

% [rows, columns]: dim 0 walks columns (lanes are consecutive columns: 700 crosses tiles of
% 256 and the workers' chunks), dim 1 rows (lanes are rows, a stride of 301 apart)
x = rand(300, 700) - 0.5
y = rand(300, 700)
s0 = sum(x .* y + 0.25, 0)
same(s0, walked(reshape(x, [300, 700, 1]), reshape(y, [300, 700, 1]), 0, 0), "sum dim 0")
x2 = rand(700, 301)
y2 = rand(700, 301)
s1 = sum(x2 .* y2 + 0.25, 1)
same(s1, walked(reshape(x2, [700, 301, 1]), reshape(y2, [700, 301, 1]), 1, 0), "sum dim 1")
m0 = mean(x .* y + 0.25, 0)
same(m0, walked(reshape(x, [300, 700, 1]), reshape(y, [300, 700, 1]), 0, 2), "mean dim 0")
for j = 0..699
    acc = 0.0
    for i = 0..299
        acc += x[i, j] * y[i, j] + 0.25
    endfor
    assert(abs(s0[j] - acc) < 1e-5 * (1 + abs(acc)) * 300)
endfor

% max skips NaNs, lane by lane
x[7, 300] = 0 / 0
x[0, 301] = 0 / 0
mx = max(x .* y + 0.25, [], 0)
same(mx, walked(reshape(x, [300, 700, 1]), reshape(y, [300, 700, 1]), 0, 1), "max dim 0")
assert(mx[300] == mx[300] && mx[301] == mx[301])

% cubes: the middle dimension (inner 260 > 1, outer 3), the first with few columns (inner
% 6: the loop per position), the last (rows of 9 lanes); each over 1024 elements, which
% the runtime reduces itself below OQ_ARRAY_KERNEL_MIN
c = rand(3, 50, 260)
e = rand(3, 50, 260)
same(sum(c .* e + 0.25, 1), walked(c, e, 1, 0), "cube dim 1")
c = rand(400, 2, 3)
e = rand(400, 2, 3)
same(reshape(sum(c .* e + 0.25, 0), [1, 2, 3]), walked(c, e, 0, 0), "cube dim 0")
c = rand(3, 3, 500)
e = rand(3, 3, 500)
same(sum(c .* e + 0.25, 2), walked(c, e, 2, 0), "cube dim 2")

% ints: exact
n = int(floor(rand(260, 333) * 1000)) - 500
si = sum(n .* n, 0)
for j = 0..332
    t = 0
    for i = 0..259
        t += n[i, j] * n[i, j]
    endfor
    assert(si[j] == t)
endfor
print "ok"
