% The image library on an image larger than the interpreter's tests use (130 x 203 x 3, no
% size a multiple of a block's), compiled for the GPU: imfilter with every boundary rule,
% gaussian_filter, imresize and immedfilt against host references at sampled pixels.
import "imfilter.q"
import "imresize.q"
import "immedfilt.q"

[H, W, C] = [130, 203, 3]
x = zeros(H, W, C)
for i = 0..H-1
    for j = 0..W-1
        for k = 0..C-1
            x[i, j, k] = mod(i * 37 + j * 11 + k * 71, 256)
        endfor
    endfor
endfor

function j = ref_index(i, n, rule)
    j = i
    if i < 0 || i >= n
        if rule == "zero"
            j = -1
        elseif rule == "clamped"
            j = i < 0 ? 0 : n - 1
        elseif rule == "circular"
            j = mod(mod(i, n) + n, n)
        elseif rule == "mirror"
            m = mod(abs(i), 2*n)
            j = m >= n ? 2*n - 1 - m : m
        else
            j = i
            while j < 0 || j >= n
                j = j < 0 ? -1 - j : 2*n - 1 - j
            endwhile
        endif
    endif
endfunction

function v = ref_at(x, mask, cy, cx, rule, i, j, k)
    v = 0.0
    for m = 0..size(mask, 0)-1
        for n = 0..size(mask, 1)-1
            ii = ref_index(i + m - cy, size(x, 0), rule)
            jj = ref_index(j + n - cx, size(x, 1), rule)
            if ii >= 0 && jj >= 0
                v += x[ii, jj, k] * mask[m, n]
            endif
        endfor
    endfor
endfunction

% sampled pixels: the four corners' neighbourhoods and a spread of the interior
function [] = check(y, x, mask, cy, cx, rule)
    for s = 0..399
        i = mod(s * 7919, size(x, 0))
        j = mod(s * 104729, size(x, 1))
        if s < 16
            i = mod(s, 4) < 2 ? mod(s, 2) : size(x, 0) - 1 - mod(s, 2)
            j = s < 8 ? int(s / 4) : size(x, 1) - 1 - int(s / 4) + 2
        endif
        k = mod(s, 3)
        assert(abs(y[i, j, k] - ref_at(x, mask, cy, cx, rule, i, j, k)) < 1e-2)
    endfor
endfunction

mask = [[1, 2, 0, -1, 3], [0, 1, 1, 2, 0], [2, -2, 1, 0, 1], [1, 0, 0, 3, 1], [0, 1, 2, 1, 0]] / 16
check(imfilter(x, mask, [2, 2], "zero"), x, mask, 2, 2, "zero")
check(imfilter(x, mask, [2, 2], "clamped"), x, mask, 2, 2, "clamped")
check(imfilter(x, mask, [1, 3], "circular"), x, mask, 1, 3, "circular")
check(imfilter(x, mask, [4, 0], "mirror"), x, mask, 4, 0, "mirror")
check(imfilter(x, mask, [0, 4], "symmetric"), x, mask, 0, 4, "symmetric")

g = gaussian_taps(1.2)
outer = zeros(numel(g), numel(g))
for m = 0..numel(g)-1
    for n = 0..numel(g)-1
        outer[m, n] = g[m] * g[n]
    endfor
endfor
c = int(floor(numel(g) / 2))
check(gaussian_filter(x, 1.2, 0, "mirror"), x, outer, c, c, "mirror")

% imresize: a constant stays constant; nearest halving keeps the odd rows and columns
assert(max(abs(imresize(ones(H, W, 3) * 9, [301, 77], "bicubic") - 9)) < 1e-3)
y = imresize(x, 0.5, "nearest")
assert(size(y, 0) == 65 && size(y, 1) == 102)
for s = 0..199
    i = mod(s * 31, 65)
    j = mod(s * 17, 101)
    assert(y[i, j, mod(s, 3)] == x[2*i + 1, 2*j + 1, mod(s, 3)])
endfor

% the median of a 3 x 3 window, counted at sampled interior pixels
md = immedfilt(x, 1)
for s = 0..99
    i = 1 + mod(s * 13, H - 2)
    j = 1 + mod(s * 29, W - 2)
    k = mod(s, 3)
    v = md[i, j, k]
    below = 0
    atmost = 0
    for m = -1..1
        for n = -1..1
            below += x[i + m, j + n, k] < v ? 1 : 0
            atmost += x[i + m, j + n, k] <= v ? 1 : 0
        endfor
    endfor
    assert(below <= 4 && atmost >= 5)
endfor
print "lib_image_large: ok"
