% Tiled histograms with vector loads over launches large enough for whole steps of the grid
% (8 positions per thread), then single vectors, then single positions (3012009 is odd):
% checked exactly against a kernel that sees its block (one thread per position, global
% atomics, no transform), on a varied and a constant image, and a sum of an odd count.
function [] = __kernel__ fill(im : cube, kind : int, pos : ivec3)
    if kind == 0
        im[pos] = mod(pos[0] * 7 + pos[1] * 3 + pos[2] * 101 + int(pos[1] / 5), 256)
    else
        im[pos] = 77
    endif
endfunction
function [] = __kernel__ hist(im : cube, y : vec, pos : ivec3)
    y[im[pos]] += 1
endfunction
function [] = __kernel__ hist_ref(im : cube, y : vec[int], pos : ivec3, blkpos : ivec3)
    y[im[pos]] += 1
endfunction
function [s : scalar] = __kernel__ ksum(x : vec, pos : int)
    s += x[pos]
endfunction
for kind = 0..1
    im = zeros(1001, 1003, 3)
    parallel_do(size(im), im, kind, fill)
    y = zeros(256)
    yr = vec[int](256)
    parallel_do(size(im), im, y, hist)
    parallel_do(size(im), im, yr, hist_ref)
    for b = 0..255
        assert(y[b] == yr[b])
    endfor
    assert(sum(y) == numel(im))
endfor
x = ones(3012009)
assert(parallel_do(numel(x), x, ksum) == numel(x))
print "hist_vector: ok"
