% The tiled GPU loop loads the arrays read at pos several elements at once (float4, int4):
% histograms and sums over position counts that are not multiples of the vector width, an
% int image, three arrays read at pos (fewer positions per step), and a launch smaller than
% one vector per thread. Checked exactly against serial host loops (`while`: never parallel).

function [] = __kernel__ hist_f(im : cube, y : vec, pos : ivec3)
    y[im[pos]] += 1
endfunction

function [] = __kernel__ hist_i(im : cube[int], y : vec[int], pos : ivec3)
    y[im[pos]] += 1
endfunction

function [] = __kernel__ hist3(a : vec, b : vec, c : vec, y : vec, pos : int)
    y[a[pos] + b[pos] - c[pos]] += 1
endfunction

function [s : scalar] = __kernel__ ksum(x : vec, pos : int)
    s += x[pos]
endfunction

function [] = check(h, w)
    im = zeros(h, w, 3)
    imi = cube[int](h, w, 3)
    hr = zeros(256)
    m = 0
    while m < h
        n = 0
        while n < w
            k = 0
            while k < 3
                v = mod(m * 7 + n * 3 + k * 101 + int(n / 5), 256)
                im[m, n, k] = v
                imi[m, n, k] = v
                hr[v] += 1
                k += 1
            endwhile
            n += 1
        endwhile
        m += 1
    endwhile
    yf = ones(256) * 3
    yi = vec[int](256) - 5
    parallel_do(size(im), im, yf, hist_f)
    parallel_do(size(imi), imi, yi, hist_i)
    for b = 0..255
        assert(yf[b] == hr[b] + 3)
        assert(yi[b] == hr[b] - 5)
    endfor
endfunction

check(1, 1)
check(1, 5)
check(37, 29)
check(64, 64)

n = 10007
a = zeros(n)
b = zeros(n)
c = zeros(n)
hr = zeros(64)
sr = 0
i = 0
while i < n
    a[i] = mod(i * 13, 40)
    b[i] = mod(i, 24) + 0.5
    c[i] = 0.5
    hr[a[i] + b[i] - c[i]] += 1
    sr += a[i]
    i += 1
endwhile
y = zeros(64) - 1
parallel_do(n, a, b, c, y, hist3)
for k = 0..63
    assert(y[k] == hr[k] - 1)
endfor
s = parallel_do(n, a, ksum)
assert(s == sr)
print "ok"
