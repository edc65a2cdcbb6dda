% Seed 001 (CUDA guide), Running kernels on the GPU: filter_kernel, a 1-D filter along
% the direction dir with the mask [1,2,3,2,1]/9, against a host loop with zero outside
% (x is unannotated in the kernel).
% REPAIR: the seed's loop bound `numel(a)` names no variable (there is no `a`); it is
%         `numel(mask)`, the filter mask being walked.
% REPAIR: `im = imread("image.png")` reads a generated image instead. The kernel adds a
%         2-element offset to pos, so the image is a matrix (2-D positions).

im = zeros(10, 14)
for m = 0..9
    for n = 0..13
        im[m, n] = mod(5 * m + 3 * n * n + m * n, 50)
    endfor
endfor

% ---- seed code ----
im_out = zeros(size(im))

function [] = __kernel__ filter_kernel(x, y : 'unchecked, mask, dir, pos)
    offset = int(numel(mask)/2)
    total = 0.
    for k=0..numel(mask)-1
        total += x[pos + (k - offset).* dir] * mask[k]
    endfor
    y[pos] = total
endfunction

parallel_do(size(im),im,im_out,[1, 2, 3, 2, 1] / 9,[0,1],filter_kernel)

% ---- test driver ----
function y = host_filter(x, mask, dir)
    y = zeros(size(x))
    off = int(numel(mask) / 2)
    for m = 0..size(x, 0)-1
        for n = 0..size(x, 1)-1
            t = 0.0
            for k = 0..numel(mask)-1
                a = m + (k - off) * dir[0]
                b = n + (k - off) * dir[1]
                if a >= 0 && a < size(x, 0) && b >= 0 && b < size(x, 1)
                    t += x[a, b] * mask[k]
                endif
            endfor
            y[m, n] = t
        endfor
    endfor
endfunction

mask = [1, 2, 3, 2, 1] / 9
want = host_filter(im, mask, [0, 1])
for m = 0..9
    for n = 0..13
        assert(abs(im_out[m, n] - want[m, n]) < 1e-3 * (1 + want[m, n]))
    endfor
endfor

% the same kernel along the columns, with a 3-tap mask
out2 = ones(size(im)) * -1
parallel_do(size(im), im, out2, [1, 1, 1] / 3, [1, 0], filter_kernel)
want2 = host_filter(im, [1, 1, 1] / 3, [1, 0])
for m = 0..9
    for n = 0..13
        assert(abs(out2[m, n] - want2[m, n]) < 1e-3 * (1 + want2[m, n]))
    endfor
endfor
print "filter_kernel_001: ok"
