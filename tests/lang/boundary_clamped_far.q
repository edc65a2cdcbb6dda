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
