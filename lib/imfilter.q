% imfilter.q: linear filtering of images, shipped with OpenQuasar.
% import "imfilter.q" finds this file in OpenQuasar's lib/ folder (it imports imboundary.q,
% so padarray and fftshift2 come with it).
%
%   y = imfilter(x, mask, ctr, boundary)        correlation of every channel with mask
%   y = gaussian_filter(x, sigma, fsize, boundary)  separable Gaussian blur
%   y = box_filter(x, fsize, boundary)          separable mean over fsize = n or [rows, cols]
%   g = gaussian_taps(sigma, fsize)             the normalized 1-D Gaussian
%
% x is a matrix (one channel), a cube (h x w x c: each channel alone) or a vec (a 1 x N row).
% y[i,j,k] = sum over m,n of x[i+m-ctr[0], j+n-ctr[1], k] * mask[m,n]: correlation, as
% MATLAB's imfilter and Quasar's. ctr defaults to [floor(rows/2), floor(cols/2)]; published
% code passes ceil(size(mask)/2)-1 (MATLAB's centre). boundary is a string (imboundary.q):
% "clamped" (the default: flat images stay flat), "zero"/"safe", "mirror", "circular",
% "symmetric". A vec mask is a 1 x N row (Quasar's rule): imfilter(x, [1,2,1]/4) filters
% along each row, imfilter(x, transpose([1,2,1]/4)) along each column.
import "imboundary.q"

% The mask as rows x cols and its centre; errors name the caller.
function [rows : int, cols : int, cy : int, cx : int] = mask_shape(mask, ctr, caller : string)
    if isscalar(mask)
        rows = 1
        cols = 1
    else
        if numel(size(mask)) > 2
            error(caller, ": the mask must be a vector or a matrix, not of size ", size(mask))
        endif
        rows = numel(size(mask)) == 1 ? 1 : size(mask, 0)
        cols = int(numel(mask) / rows)
    endif
    if rows == 0 || cols == 0
        error(caller, ": the mask is empty")
    endif
    if isscalar(ctr) && ctr == -1
        cy = int(floor(rows / 2))
        cx = int(floor(cols / 2))
    elseif numel(ctr) == 1 && rows == 1
        cy = 0
        cx = int(isscalar(ctr) ? ctr : ctr[0])
    elseif numel(ctr) == 2
        cy = int(ctr[0])
        cx = int(ctr[1])
    else
        error(caller, ": the centre must be [row, col] of the mask, not ", ctr)
        cy = 0
        cx = 0
    endif
endfunction

function [] = check_image(x, caller : string)
    if isscalar(x) || numel(size(x)) > 3
        error(caller, ": the image must be a vec, a matrix or a cube")
    endif
    if numel(x) == 0
        error(caller, ": the image is empty")
    endif
endfunction

% The correlation kernel: inside the image the window is read directly; near the edge each
% index goes through the boundary rule (bnd_index: -1 is a zero sample).
function [] = __kernel__ imfilter_kernel(x : cube'unchecked, y : cube'unchecked, _
        mask : vec'unchecked, rows : int, cols : int, cy : int, cx : int, _
        h : int, w : int, mode : int, pos : ivec3)
    i0 = pos[0] - cy
    j0 = pos[1] - cx
    total = 0.0
    if i0 >= 0 && j0 >= 0 && i0 + rows <= h && j0 + cols <= w
        for m = 0..rows-1
            for n = 0..cols-1
                total += x[i0 + m, j0 + n, pos[2]] * mask[m*cols + n]
            endfor
        endfor
    else
        for m = 0..rows-1
            i = bnd_index(i0 + m, h, mode)
            for n = 0..cols-1
                j = bnd_index(j0 + n, w, mode)
                if i >= 0 && j >= 0
                    total += x[i, j, pos[2]] * mask[m*cols + n]
                endif
            endfor
        endfor
    endif
    y[pos] = total
endfunction

function y = imfilter(x, mask, ctr = -1, boundary = "clamped")
    check_image(x, "imfilter")
    mode = boundary_mode(boundary, "imfilter")
    [rows, cols, cy, cx] = mask_shape(mask, ctr, "imfilter")
    xr = as_rows(x)
    y = zeros(size(xr))
    taps = isscalar(mask) ? ones(1) * mask : reshape(mask, [rows*cols])
    parallel_do(size(y), xr, y, taps, rows, cols, _
                cy, cx, size(xr, 0), size(xr, 1), mode, imfilter_kernel)
    y = like_input(y, x)
endfunction

% One pass of a separable filter: taps g centred at c, along rows (dy = 1) or columns (dx = 1).
function [] = __kernel__ separable_kernel(x : cube'unchecked, y : cube'unchecked, _
        g : vec'unchecked, c : int, dy : int, dx : int, h : int, w : int, mode : int, _
        pos : ivec3)
    n = numel(g)
    i0 = pos[0] - c*dy
    j0 = pos[1] - c*dx
    total = 0.0
    if i0 >= 0 && j0 >= 0 && i0 + (n-1)*dy < h && j0 + (n-1)*dx < w
        for t = 0..n-1
            total += x[i0 + t*dy, j0 + t*dx, pos[2]] * g[t]
        endfor
    else
        for t = 0..n-1
            i = bnd_index(i0 + t*dy, h, mode)
            j = bnd_index(j0 + t*dx, w, mode)
            if i >= 0 && j >= 0
                total += x[i, j, pos[2]] * g[t]
            endif
        endfor
    endif
    y[pos] = total
endfunction

% Rows with taps gy (centre cy), then columns with gx (centre cx).
function y = separable_filter(x, gy, cy : int, gx, cx : int, mode : int)
    xr = as_rows(x)
    [h, w] = [size(xr, 0), size(xr, 1)]
    tmp = zeros(size(xr))
    y = zeros(size(xr))
    parallel_do(size(xr), xr, tmp, gy, cy, 1, 0, h, w, mode, separable_kernel)
    parallel_do(size(xr), tmp, y, gx, cx, 0, 1, h, w, mode, separable_kernel)
    y = like_input(y, x)
endfunction

% The normalized 1-D Gaussian of standard deviation sigma: fsize taps, or 2*ceil(3*sigma)+1
% when fsize is 0.
function g : vec = gaussian_taps(sigma : scalar, fsize : int = 0)
    if !(sigma > 0)
        error("gaussian_filter: sigma must be positive, not ", sigma)
    endif
    if fsize < 0
        error("gaussian_filter: the filter size must be positive (or 0: from sigma), not ", fsize)
    endif
    n = fsize == 0 ? 2 * int(ceil(3 * sigma)) + 1 : fsize
    c = floor(n / 2)
    g = exp(-((0..n-1) - c) .^ 2 / (2 * sigma * sigma))
    g = g / sum(g)
endfunction

function y = gaussian_filter(x, sigma, fsize = 0, boundary = "clamped")
    check_image(x, "gaussian_filter")
    mode = boundary_mode(boundary, "gaussian_filter")
    g = gaussian_taps(sigma, int(fsize))
    c = int(floor(numel(g) / 2))
    y = separable_filter(x, g, c, g, c, mode)
endfunction

function y = box_filter(x, fsize, boundary = "clamped")
    check_image(x, "box_filter")
    mode = boundary_mode(boundary, "box_filter")
    n = pair_of(fsize, "box_filter", "the filter size")
    if n[0] < 1 || n[1] < 1
        error("box_filter: the filter size must be at least 1, not ", n)
    endif
    gy = ones(int(n[0])) / n[0]
    gx = ones(int(n[1])) / n[1]
    y = separable_filter(x, gy, int(floor(n[0] / 2)), gx, int(floor(n[1] / 2)), mode)
endfunction
