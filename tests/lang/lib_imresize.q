% lib/imresize.q against host loops written from MATLAB's pixel-centre convention,
% and identities: a constant stays constant, scale 1 is the identity.
import "imresize.q"

x = zeros(6, 8, 2)
for i = 0..5
    for j = 0..7
        x[i, j, 0] = mod(i * 5 + j * 3, 11)
        x[i, j, 1] = i * j
    endfor
endfor

% nearest, 0.5: every second pixel from 1 (MATLAB's [2 4 6 ...] in 1-based indices)
y = imresize(x, 0.5, "nearest")
assert(size(y, 0) == 3 && size(y, 1) == 4 && size(y, 2) == 2)
for i = 0..2
    for j = 0..3
        for k = 0..1
            assert(y[i, j, k] == x[2*i + 1, 2*j + 1, k])
        endfor
    endfor
endfor

% scale 1 is the identity for every method; a constant stays constant
for method = 0..2
    name = method == 0 ? "nearest" : (method == 1 ? "bilinear" : "bicubic")
    assert(max(abs(imresize(x, 1, name) - x)) < 1e-4)
    c = imresize(ones(5, 7) * 17, [9, 4], name)
    assert(size(c, 0) == 9 && size(c, 1) == 4 && numel(size(c)) == 2)
    assert(max(abs(c - 17)) < 1e-3)
endfor

% The sample position u = (i + 0.5) * h / rows - 0.5, edges clamped.
function v = ref_pixel(x, k, u, w, method)
    [H, W] = [size(x, 0), size(x, 1)]
    i = floor(u)
    j = floor(w)
    v = 0.0
    if method == "bilinear"
        for m = 0..1
            for n = 0..1
                wy = m == 0 ? 1 - (u - i) : u - i
                wx = n == 0 ? 1 - (w - j) : w - j
                v += wy * wx * x[min(max(i + m, 0), H - 1), min(max(j + n, 0), W - 1), k]
            endfor
        endfor
    else
        % Keys' cubic, a = -0.5, from its two pieces
        for m = -1..2
            for n = -1..2
                ty = abs(u - (i + m))
                tx = abs(w - (j + n))
                wy = ty <= 1 ? 1.5*ty^3 - 2.5*ty^2 + 1 : -0.5*ty^3 + 2.5*ty^2 - 4*ty + 2
                wx = tx <= 1 ? 1.5*tx^3 - 2.5*tx^2 + 1 : -0.5*tx^3 + 2.5*tx^2 - 4*tx + 2
                v += wy * wx * x[min(max(i + m, 0), H - 1), min(max(j + n, 0), W - 1), k]
            endfor
        endfor
    endif
endfunction

function [] = check(x, sz, method)
    y = imresize(x, sz, method, false)     % the plain interpolation (lib_imresize_antialias.q: on)
    [R, C] = [size(y, 0), size(y, 1)]
    for i = 0..R-1
        for j = 0..C-1
            for k = 0..size(x, 2)-1
                u = (i + 0.5) * size(x, 0) / R - 0.5
                w = (j + 0.5) * size(x, 1) / C - 0.5
                assert(abs(y[i, j, k] - ref_pixel(x, k, u, w, method)) < 1e-3)
            endfor
        endfor
    endfor
endfunction
check(x, [9, 5], "bilinear")
check(x, [4, 13], "bicubic")
check(x, [6, 16], "bicubic")

% a scale: ceil(scale * size) pixels, sampled at (i + 0.5) / scale - 0.5
y = imresize(x[:, :, 0], 1.5, "bilinear")
assert(size(y, 0) == 9 && size(y, 1) == 12 && numel(size(y)) == 2)
y2 = imresize(x[:, :, 0], [9, 12], "bilinear")
assert(max(abs(y - y2)) < 1e-4)

% the default method is bicubic; a vec stays a vec (a 1 x N row)
assert(max(abs(imresize(x, [3, 5]) - imresize(x, [3, 5], "bicubic"))) == 0)
v = imresize([0, 2, 4, 6], [1, 8], "bilinear")
assert(size(imresize([0, 2, 4, 6], 2, "nearest"), 0) == 2)
assert(numel(size(v)) == 1 && numel(v) == 8)
% inside, bilinear reproduces a ramp: v = 2 * ((j + 0.5) / 2 - 0.5)
for j = 1..6
    assert(abs(v[j] - 2 * ((j + 0.5) / 2 - 0.5)) < 1e-5)
endfor
print "lib_imresize: ok"
