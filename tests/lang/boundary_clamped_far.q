% Clamped reads at indices far outside the array, which a 32-bit index cannot hold: scalar
% indices past +-2^31 and NaN (the GPU and idx32 code convert them to int32 saturating, so
% the nearest edge must stay the same). The reference is a host loop that clamps by hand.

function [] = __kernel__ read_at(x : vec'clamped, y : vec, s : vec, pos : int)
    y[pos] = x[s[pos]]
endfunction

function [] = __kernel__ read2_at(x : mat'clamped, y : vec, s : vec, pos : int)
    y[pos] = x[s[pos], -s[pos]] + 1000 * x[2, s[pos]]
endfunction

% the element a scalar index t stands for: truncated, then the nearest one of 0..n-1
function j = clamp_index(t, n)
    j = t != t ? 0 : (t <= -1 ? 0 : (t >= n ? n - 1 : floor(abs(t)) * (t < 0 ? -1 : 1)))
    j = j < 0 ? 0 : j
endfunction

n = 9
x = (0..n-1) * 3 + 1
s = [NaN, 1e10, -1e10, 2147483648, -2147483649, 2147483647, -2147483648, 5.7, -0.5, 8.99, 9, 1e30, -1e30]
y = ones(numel(s)) * -7
parallel_do(numel(s), x, y, s, read_at)
for k = 0..numel(s)-1
    assert(y[k] == x[clamp_index(s[k], n)])
endfor

m = reshape(0..n*n-1, [n, n])
y2 = ones(numel(s)) * -7
parallel_do(numel(s), m, y2, s, read2_at)
for k = 0..numel(s)-1
    want = m[clamp_index(s[k], n), clamp_index(-s[k], n)] + 1000 * m[2, clamp_index(s[k], n)]
    assert(y2[k] == want)
endfor
print "ok"

% x[pos + [0, d]] on arrays of the launch's own size: dimension 0 is the thread's own row
% (no rule applied there), dimension 1 goes through each rule
function [] = __kernel__ shifted(xc : mat'clamped, xr : mat'circular, xm : mat'mirror, xz : mat'safe, _
                                 y : cube, d : int, pos : ivec2)
    y[pos[0], pos[1], 0] = xc[pos + [0, d]] + xc[pos + [d, 0]]
    y[pos[0], pos[1], 1] = xr[pos + [0, d]] + xr[pos + [d, 0]]
    y[pos[0], pos[1], 2] = xm[pos + [0, d]] + xm[pos + [d, 0]]
    y[pos[0], pos[1], 3] = xz[pos + [0, d]] + xz[pos + [d, 0]]
endfunction

function j = wrap_index(i, n, rule)
    if rule == 0
        j = i < 0 ? 0 : (i >= n ? n - 1 : i)
    elseif rule == 1
        j = i - n * floor(i / n)   % (mod keeps the sign of i)
    elseif rule == 2
        k = abs(i)
        k = k - 2 * n * floor(k / (2 * n))
        j = k < n ? k : 2 * n - 1 - k
    else
        j = i >= 0 && i < n ? i : -1
    endif
endfunction

h = 5
w = 7
a = reshape(0..h*w-1, [h, w]) + 1
for d = [-9, -1, 1, 3, 12]
    y3 = ones(h, w, 4) * -7
    parallel_do([h, w], a, a, a, a, y3, d, shifted)
    for i = 0..h-1
        for j = 0..w-1
            for rule = 0..3
                jc = wrap_index(j + d, w, rule)
                ic = wrap_index(i + d, h, rule)
                want = (jc < 0 ? 0 : a[i, jc]) + (ic < 0 ? 0 : a[ic, j])
                assert(y3[i, j, rule] == want)
            endfor
        endfor
    endfor
endfor
print "ok"
