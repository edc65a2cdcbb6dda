% imfilter.q: linear filtering of images, shipped with OpenQuasar.
% import "imfilter.q" finds this file in OpenQuasar's lib/ folder (it imports imboundary.q,
% so padarray and fftshift2 come with it).
%
%   y = imfilter(x, mask, ctr, boundary)        correlation of every channel with mask
%   y = imfilter(x, mask, boundary)             the same with the default centre
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

% Each thread computes 8 output rows of one column and channel (rows 8*pos[0] .. +7): an
% input row it reads serves every output row whose window holds it, so a 5 x 5 mask costs
% 7.5 reads per output instead of 25 (the reads, not the arithmetic, bound a filter).
% The taps live in constant memory on the GPU ('hwconst: every thread reads the same tap).
% Indices outside the image go through the boundary rule (bnd_index: -1 is a zero sample);
% columns are read directly when the whole window lies inside.
function [] = __kernel__ imfilter_kernel(x : cube'unchecked, y : cube'unchecked'nocopy, _
        mask : vec'unchecked'hwconst, rows : int, cols : int, cy : int, cx : int, _
        h : int, w : int, mode : int, pos : ivec3)
    i0 = 8 * pos[0]
    j0 = pos[1] - cx
    c = pos[2]
    inside = j0 >= 0 && j0 + cols <= w
    a0 = 0.0
    a1 = 0.0
    a2 = 0.0
    a3 = 0.0
    a4 = 0.0
    a5 = 0.0
    a6 = 0.0
    a7 = 0.0
    for r = 0..rows+6
        i = bnd_index(i0 + r - cy, h, mode)
        if i >= 0
            for n = 0..cols-1
                j = inside ? j0 + n : bnd_index(j0 + n, w, mode)
                if j >= 0
                    v = x[i, j, c]
                    if r < rows
                        a0 += mask[r*cols + n] * v
                    endif
                    if r >= 1 && r < rows + 1
                        a1 += mask[(r-1)*cols + n] * v
                    endif
                    if r >= 2 && r < rows + 2
                        a2 += mask[(r-2)*cols + n] * v
                    endif
                    if r >= 3 && r < rows + 3
                        a3 += mask[(r-3)*cols + n] * v
                    endif
                    if r >= 4 && r < rows + 4
                        a4 += mask[(r-4)*cols + n] * v
                    endif
                    if r >= 5 && r < rows + 5
                        a5 += mask[(r-5)*cols + n] * v
                    endif
                    if r >= 6 && r < rows + 6
                        a6 += mask[(r-6)*cols + n] * v
                    endif
                    if r >= 7
                        a7 += mask[(r-7)*cols + n] * v
                    endif
                endif
            endfor
        endif
    endfor
    store8(y, i0, pos[1], c, h, a0, a1, a2, a3, a4, a5, a6, a7)
endfunction

% The 8 results of a thread, the rows past the image left out.
function [] = __device__ store8(y : cube'unchecked, i0 : int, j : int, c : int, h : int, _
        a0 : scalar, a1 : scalar, a2 : scalar, a3 : scalar, a4 : scalar, a5 : scalar, _
        a6 : scalar, a7 : scalar)
    y[i0, j, c] = a0
    if i0 + 1 < h
        y[i0 + 1, j, c] = a1
    endif
    if i0 + 2 < h
        y[i0 + 2, j, c] = a2
    endif
    if i0 + 3 < h
        y[i0 + 3, j, c] = a3
    endif
    if i0 + 4 < h
        y[i0 + 4, j, c] = a4
    endif
    if i0 + 5 < h
        y[i0 + 5, j, c] = a5
    endif
    if i0 + 6 < h
        y[i0 + 6, j, c] = a6
    endif
    if i0 + 7 < h
        y[i0 + 7, j, c] = a7
    endif
endfunction

function y = imfilter(x, mask, ctr = -1, boundary = "clamped")
    check_image(x, "imfilter")
    if is_rule_name(ctr)                % imfilter(x, mask, "mirror"): the default centre
        boundary = ctr
        ctr = -1
    endif
    mode = boundary_mode(boundary, "imfilter")
    [rows, cols, cy, cx] = mask_shape(mask, ctr, "imfilter")
    xr = as_rows(x)
    y = uninit(size(xr))
    taps = isscalar(mask) ? ones(1) * mask : reshape(mask, [rows*cols])
    parallel_do([ceil(size(xr, 0) / 8), size(xr, 1), size(xr, 2)], xr, y, taps, rows, cols, _
                cy, cx, size(xr, 0), size(xr, 1), mode, imfilter_kernel)
    y = like_input(y, x)
endfunction

% A separable filter in one pass: taps gy down the columns (centre cy) and gx along the
% rows (centre cx). Each thread computes 8 output rows: every input row of their windows is
% filtered along the row once (gx) and added to each output row it reaches (gy).
function [] = __kernel__ separable_kernel(x : cube'unchecked, y : cube'unchecked'nocopy, _
        gy : vec'unchecked'hwconst, cy : int, gx : vec'unchecked'hwconst, cx : int, _
        h : int, w : int, mode : int, pos : ivec3)
    ny = numel(gy)
    nx = numel(gx)
    i0 = 8 * pos[0]
    j0 = pos[1] - cx
    c = pos[2]
    inside = j0 >= 0 && j0 + nx <= w
    a0 = 0.0
    a1 = 0.0
    a2 = 0.0
    a3 = 0.0
    a4 = 0.0
    a5 = 0.0
    a6 = 0.0
    a7 = 0.0
    for r = 0..ny+6
        i = bnd_index(i0 + r - cy, h, mode)
        if i >= 0
            t = 0.0
            if inside
                for n = 0..nx-1
                    t += gx[n] * x[i, j0 + n, c]
                endfor
            else
                for n = 0..nx-1
                    j = bnd_index(j0 + n, w, mode)
                    if j >= 0
                        t += gx[n] * x[i, j, c]
                    endif
                endfor
            endif
            if r < ny
                a0 += gy[r] * t
            endif
            if r >= 1 && r < ny + 1
                a1 += gy[r-1] * t
            endif
            if r >= 2 && r < ny + 2
                a2 += gy[r-2] * t
            endif
            if r >= 3 && r < ny + 3
                a3 += gy[r-3] * t
            endif
            if r >= 4 && r < ny + 4
                a4 += gy[r-4] * t
            endif
            if r >= 5 && r < ny + 5
                a5 += gy[r-5] * t
            endif
            if r >= 6 && r < ny + 6
                a6 += gy[r-6] * t
            endif
            if r >= 7
                a7 += gy[r-7] * t
            endif
        endif
    endfor
    store8(y, i0, pos[1], c, h, a0, a1, a2, a3, a4, a5, a6, a7)
endfunction

function y = separable_filter(x, gy, cy : int, gx, cx : int, mode : int)
    xr = as_rows(x)
    y = uninit(size(xr))
    parallel_do([ceil(size(xr, 0) / 8), size(xr, 1), size(xr, 2)], xr, y, gy, cy, gx, cx, _
                size(xr, 0), size(xr, 1), mode, separable_kernel)
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
    if is_rule_name(fsize)              % gaussian_filter(x, sigma, "mirror"): size from sigma
        boundary = fsize
        fsize = 0
    endif
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
