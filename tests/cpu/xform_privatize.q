% Arrays updated only by += and -= at data-dependent indices (histograms): private copies
% per CPU worker, per-block copies in GPU shared memory (replicated per lane), merged at the
% end. Checked against host loops, exactly: int histograms, counts in a float array
% (`y[v] += 1`), float weights that are multiples of 1/2, -=, two histograms in one
% kernel, a captured histogram, a histogram too large for shared memory (global atomics),
% an argument passed twice (no private copy), out-of-range bins dropped (default rule) and
% wrapped ('circular), a constant image (every update on one bin), counted additions past
% 2^24, and an empty launch.

function [] = __kernel__ hist_int(im : cube, y : vec[int], pos : ivec3)
    y[im[pos]] += 1
endfunction

function [] = __kernel__ hist_count(im : cube, y : vec, pos : ivec3)
    v = im[pos]
    y[v] += 1
endfunction

function [] = __kernel__ two(x : vec, h : vec, g : vec[int], pos : int)
    b = mod(int(x[pos]), 64)
    h[b] += 0.5 * mod(pos, 3)
    g[b] -= 2
    g[63 - b] += 1
endfunction

function [] = __kernel__ wrap(x : vec, h : vec'circular, pos : int)
    h[x[pos]] += 1
endfunction

function [] = __kernel__ alias(x : vec, a : vec, b : vec, pos : int)
    a[mod(int(x[pos]), 16)] += 1
    b[16 + mod(pos, 16)] += 2
endfunction

function im = image(h, w, kind)
    im = zeros(h, w, 3)
    for m = 0..h-1
        for n = 0..w-1
            for k = 0..2
                if kind == 0
                    im[m, n, k] = mod(m * 7 + n * 3 + k * 101 + int(n / 17), 256)
                else
                    im[m, n, k] = 200
                endif
            endfor
        endfor
    endfor
endfunction

function [] = check_image(im)
    hr = zeros(256)
    for m = 0..size(im, 0)-1
        for n = 0..size(im, 1)-1
            for k = 0..2
                hr[im[m, n, k]] += 1
            endfor
        endfor
    endfor
    yi = vec[int](256) - 5
    yc = ones(256) * 3
    parallel_do(size(im), im, yi, hist_int)
    parallel_do(size(im), im, yc, hist_count)
    for b = 0..255
        assert(yi[b] == hr[b] - 5)
        assert(yc[b] == hr[b] + 3)
    endfor
endfunction

check_image(image(61, 97, 0))
check_image(image(40, 33, 1))

% two histograms, float weights and -=
n = 5000
x = zeros(n)
for i = 0..n-1
    x[i] = mod(i * i + 3 * i, 1000) + 0.25
endfor
h = zeros(64)
g = vec[int](64)
parallel_do(n, x, h, g, two)
hr = zeros(64)
gr = vec[int](64)
for i = 0..n-1
    b = mod(int(x[i]), 64)
    hr[b] += 0.5 * mod(i, 3)
    gr[b] -= 2
    gr[63 - b] += 1
endfor
for b = 0..63
    assert(h[b] == hr[b] && g[b] == gr[b])
endfor

% a captured histogram, and out-of-range bins: dropped (default) and wrapped ('circular)
cap = zeros(10)
parallel_do(n, x, __kernel__ (x : vec, pos : int) -> cap[x[pos] - 495] += 1)
hw = zeros(10)
parallel_do(n, x, hw, wrap)
cr = zeros(10)
wr = zeros(10)
for i = 0..n-1
    v = int(x[i]) - 495
    if v >= 0 && v < 10
        cr[v] += 1
    endif
    wr[mod(int(x[i]), 10)] += 1
endfor
for b = 0..9
    assert(cap[b] == cr[b] && hw[b] == wr[b])
endfor

% larger than any shared-memory copy: 40000 bins (global atomics on the GPU)
big = zeros(40000)
parallel_do(n, x, big, __kernel__ (x : vec, big : vec, pos : int) -> big[mod(pos * 7919, 40000)] += 1)
for i = 0..n-1
    big[mod(i * 7919, 40000)] -= 1
endfor
assert(sum(big) == 0 && max(big) == 0 && min(big) == 0)

% an argument passed twice, both += arrays: every update lands
a = zeros(n)
parallel_do(n, x, a, a, alias)
ar = zeros(n)
for i = 0..n-1
    ar[mod(int(x[i]), 16)] += 1
    ar[16 + mod(i, 16)] += 2
endfor
for b = 0..n-1
    assert(a[b] == ar[b])
endfor

% counted additions (+= 3) merged as the oracle's one-by-one float additions: past 2^24
% (where they round), from below -2^24, from a fraction, into NaN
function [] = __kernel__ bump3(v : vec, h : vec, pos : int)
    h[v[pos]] += 3
endfunction
M = 30000
w = zeros(M)
for i = 0..M-1
    w[i] = mod(i, 4)
endfor
hb = [16777200, -16777300, 0.5, NaN]
hr = copy(hb)
parallel_do(M, w, hb, bump3)
for i = 0..M-1
    hr[w[i]] += 3
endfor
for b = 0..2
    assert(hb[b] == hr[b])
endfor
assert(isnan(hb[3]))

% an empty launch leaves the histogram as it was
e = ones(256) * 7
parallel_do([0, 4, 3], zeros(0, 4, 3), e, hist_count)
assert(sum(e) == 7 * 256)
print "ok"
