% Reductions along a dimension at the sizes of bench/arrayexpr (2048^2 and runs of 1000+
% not a multiple of the lanes): on --target cuda lanes share each run and a second kernel
% combines them (interp_arrayexpr.c, launch_along). Checked against a hand-written kernel
% with one thread walking each run in order, within the rounding bound of any order of the
% additions (2 n u sum |v|, u = 2^-24); max and min (NaNs skipped) and ints exactly. The
% output arrays are fresh: each element is checked, and no expected value is 0.

function [] = __kernel__ walk(x : cube'unchecked, r : cube'unchecked, tol : cube'unchecked, d : int, op : int, pos : ivec3)
    n = size(x, d)
    dv = [d == 0, d == 1, d == 2]
    v = x[pos] * 1.5 + 0.25
    acc = v
    mag = abs(v)
    for k = 1..n - 1
        v = x[pos + k * dv] * 1.5 + 0.25
        mag = mag + abs(v)
        if op == 0
            acc = acc + v
        else
            acc = v == v && (acc != acc || v > acc) ? v : acc
        endif
    endfor
    r[pos] = acc
    tol[pos] = op == 0 ? 2.4e-7 * n * mag : 0
endfunction

function [] = check(got, c, d, op, what)
    s = size(c, 0..2)
    s[d] = 1
    r = zeros(s)
    tol = zeros(s)
    parallel_do(s, c, r, tol, d, op, walk)
    assert(numel(got) == numel(r))
    bad = 0
    for k = 0..numel(r) - 1
        bad += !(abs(got[k] - r[k]) <= tol[k] || (got[k] != got[k] && r[k] != r[k]))
    endfor
    if bad > 0
        error(what, ": ", bad, " elements differ")
    endif
endfunction

x = rand(2048, 2048)
c = reshape(x, [2048, 2048, 1])
check(sum(x * 1.5 + 0.25, 0), c, 0, 0, "sum along 0")
check(sum(x * 1.5 + 0.25, 1), c, 1, 0, "sum along 1")
check(max(x * 1.5 + 0.25, [], 0), c, 0, 1, "max along 0")
y = rand(1500, 1037)
y[3, :] = 0 / 0
y[:, 5] = 0 / 0
cy = reshape(y, [1500, 1037, 1])
check(max(y * 1.5 + 0.25, [], 1), cy, 1, 1, "max along 1 with NaNs")
z = rand(7, 3001, 5)
check(sum(z * 1.5 + 0.25, 1), z, 1, 0, "cube along 1")
check(sum(z * 1.5 + 0.25, 2), z, 2, 0, "cube along 2")
m = mean(x * 1.5 + 0.25, 1)
s1 = sum(x * 1.5 + 0.25, 1)
bad = 0
for k = 0..2047
    bad += abs(m[k] - s1[k] / 2048) > 1e-6 * s1[k] / 2048
endfor
assert(bad == 0)
% ints: exact
n = int(floor(rand(3000, 700) * 1000)) - 500
si = sum(n * 3 + 1, 0)
bad = 0
for j = 0..699
    t = 0
    for i = 0..2999
        t += n[i, j] * 3 + 1
    endfor
    bad += si[j] != t
endfor
assert(bad == 0)
print "ok"
