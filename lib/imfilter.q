% imfilter.q: linear filtering of images, shipped with OpenQuasar.
% import "imfilter.q" finds this file in OpenQuasar's lib/ folder.
%
%   y = imfilter(x, mask)          correlation of every channel of x with mask
%   y = gaussian_filter(x, sigma)  separable Gaussian blur, radius ceil(3*sigma)
%
% The mask's centre is element [floor(rows/2), floor(cols/2)]. Outside the image the
% nearest edge pixel is used ('clamped), so flat images stay flat. A vec mask is a 1 x N
% row (Quasar's rule): imfilter(x, [1,2,1]/4) filters along each row, and
% imfilter(x, transpose([1,2,1]/4)) along each column.

function y : cube = imfilter(x : cube, mask : mat)
    function [] = __kernel__ correlate(x : cube'clamped, y : cube'unchecked, mask : vec'unchecked, _
                                       rows : int, cols : int, cy : int, cx : int, pos : ivec3)
        total = 0.0
        for m = 0..rows-1
            for n = 0..cols-1
                total += x[pos[0] + m - cy, pos[1] + n - cx, pos[2]] * mask[m*cols + n]
            endfor
        endfor
        y[pos] = total
    endfunction
    rows = numel(size(mask)) == 1 ? 1 : size(mask, 0)
    cols = int(numel(mask) / rows)
    y = zeros(size(x))
    parallel_do(size(y), x, y, reshape(mask, numel(mask)), rows, cols, _
                int(floor(rows/2)), int(floor(cols/2)), correlate)
endfunction

% The normalized 1-D Gaussian of standard deviation sigma, 2*ceil(3*sigma)+1 taps.
function g : vec = gaussian_taps(sigma : scalar)
    r = int(ceil(3 * sigma))
    g = zeros(2*r + 1)
    for i = -r..r
        g[i + r] = exp(-(i*i) / (2 * sigma * sigma))
    endfor
    g = g / sum(g)
endfunction

function y : cube = gaussian_filter(x : cube, sigma : scalar)
    g = gaussian_taps(sigma)
    r = int((numel(g) - 1) / 2)
    function [] = __kernel__ along(x : cube'clamped, y : cube'unchecked, g : vec'unchecked, _
                                   r : int, dy : int, dx : int, pos : ivec3)
        total = 0.0
        for i = -r..r
            total += x[pos[0] + i*dy, pos[1] + i*dx, pos[2]] * g[i + r]
        endfor
        y[pos] = total
    endfunction
    tmp = zeros(size(x))
    y = zeros(size(x))
    parallel_do(size(x), x, tmp, g, r, 0, 1, along)
    parallel_do(size(x), tmp, y, g, r, 1, 0, along)
endfunction
