% Every boundary modifier, read and written from a kernel, checked against indices
% resolved on the host: 'circular wraps, 'mirror reflects (-1 -> 1, n -> n-1),
% 'clamped takes the nearest edge element, 'safe and no modifier read 0 outside and drop
% writes, 'unchecked is used in range only.

function [] = __kernel__ reads(xc : vec'circular, xm : vec'mirror, xk : vec'clamped, _
                               xs : vec'safe, xd : vec, xu : vec'unchecked, out : mat, off : int, pos : int)
    i = pos + off
    out[pos, 0] = xc[i]
    out[pos, 1] = xm[i]
    out[pos, 2] = xk[i]
    out[pos, 3] = xs[i]
    out[pos, 4] = xd[i]
    if pos < numel(xu)
        out[pos, 5] = xu[pos]
    endif
endfunction

function [] = __kernel__ writes(yc : vec'circular, ym : vec'mirror, yk : vec'clamped, _
                                ys : vec'safe, yd : vec, off : int, pos : int)
    i = pos + off
    yc[i] = pos + 1
    ym[i] = pos + 1
    yk[i] = pos + 1
    ys[i] = pos + 1
    yd[i] = pos + 1
endfunction

% a 2-D array read with 'mirror and 'circular, a position vector index
function [] = __kernel__ reads2(a : mat'mirror, b : mat'circular, o1 : mat, o2 : mat, pos : ivec2)
    o1[pos] = a[pos + [-2, 3]]
    o2[pos] = b[pos[0] - 5, pos[1] + 7]
endfunction

% QUASAR-NOTES.md's rule: |i| mod 2n, then 2n-1-j where that is >= n
function r = host_mirror(i, n)
    r = i
    if i < 0 || i >= n
        p = 2 * n
        j = mod(abs(i), p)
        r = j < n ? j : p - 1 - j
    endif
endfunction

function r = host_circ(i, n)
    r = mod(i, n)
    if r < 0
        r += n
    endif
endfunction

n = 7
x = zeros(n)
for i = 0..n-1
    x[i] = 10 * i + 1
endfor
m = 3 * n
off = -n
out = ones(m, 6) * -99
parallel_do(m, x, x, x, x, x, x, out, off, reads)
for p = 0..m-1
    i = p + off
    assert(out[p, 0] == x[host_circ(i, n)])
    assert(out[p, 1] == x[host_mirror(i, n)])
    assert(out[p, 2] == x[i < 0 ? 0 : (i >= n ? n - 1 : i)])
    inside = i >= 0 && i < n
    assert(out[p, 3] == (inside ? x[i] : 0))
    assert(out[p, 4] == (inside ? x[i] : 0))
    if p < n
        assert(out[p, 5] == x[p])
    endif
endfor

% writes: one thread per target index, so no two threads write the same element
% (for 'circular use a launch of exactly n threads shifted by off = 3)
yc = zeros(n)
ym = zeros(n)
yk = zeros(n)
ys = zeros(n)
yd = zeros(n)
parallel_do(n, yc, ym, yk, ys, yd, 3, writes)
for p = 0..n-1
    i = p + 3
    assert(yc[host_circ(i, n)] == p + 1)
    if i < n
        assert(ys[i] == p + 1)
        assert(yd[i] == p + 1)
    endif
endfor
% 'safe and default drop what falls outside: the first three stay 0
for i = 0..2
    assert(ys[i] == 0 && yd[i] == 0)
endfor
% mirror: i = 3..9 -> 3,4,5,6,6,5,4: threads are independent, so check only the element
% written once, and that 6 holds one of its two writers
assert(ym[3] == 1)
assert(ym[6] == 4 || ym[6] == 5)
% clamped: i = 7, 8, 9 all write element 6
assert(yk[3] == 1 && yk[4] == 2 && yk[5] == 3)
assert(yk[6] >= 4 && yk[6] <= 7)

a = zeros(5, 6)
for i = 0..4
    for j = 0..5
        a[i, j] = 100 * i + j
    endfor
endfor
o1 = zeros(5, 6)
o2 = zeros(5, 6)
parallel_do(size(a), a, a, o1, o2, reads2)
for i = 0..4
    for j = 0..5
        assert(o1[i, j] == a[host_mirror(i - 2, 5), host_mirror(j + 3, 6)])
        assert(o2[i, j] == a[host_circ(i - 5, 5), host_circ(j + 7, 6)])
    endfor
endfor
print "boundary_modes: ok"
