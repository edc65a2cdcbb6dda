% CHECK: parse-only (the seed reads numel(a) where it means numel(mask) (a bug of the document; tests/seeds_run/filter_kernel_001.q runs the repaired program))
% From seed 001 (Quasar - CUDA Support GUIDE), lines 26-38: a simple kernel run with parallel_do
im = imread("image.png")
im_out = zeros(size(im))

function [] = __kernel__ filter_kernel(x, y : 'unchecked, mask, dir, pos)
    offset = int(numel(mask)/2)
    total = 0.
    for k=0..numel(a)-1
        total += x[pos + (k - offset).* dir] * mask[k]
    endfor
    y[pos] = total
endfunction

parallel_do(size(im),im,im_out,[1, 2, 3, 2, 1] / 9,[0,1],filter_kernel)
