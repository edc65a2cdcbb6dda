% immedfilt.q: the median filter, shipped with OpenQuasar.
% import "immedfilt.q" finds this file in OpenQuasar's lib/ folder.
%
%   y = immedfilt(x, r, boundary)   the median of the (2r+1) x (2r+1) window around each
%                                   pixel, each channel alone
%
% r is the radius (r = 1: 3 x 3). boundary (imboundary.q) defaults to "clamped" (MATLAB's
% medfilt2 pads with zeros: pass "zero" for that). x is a vec, matrix or cube. The kernel
% needs no per-thread array: the median is the window's sample v with fewer than
% (n+1)/2 samples below it and at least (n+1)/2 at or below it, found by counting
% (O(n^2) reads per pixel for n samples: meant for small radii).
import "imfilter.q"

function [] = __kernel__ median_kernel(x : cube'unchecked, y : cube'unchecked'nocopy, r : int, _
        h : int, w : int, mode : int, pos : ivec3)
    side = 2*r + 1
    half = int((side*side - 1) / 2)
    result = 0.0
    done = 0
    for a = 0..side*side-1
        if done == 0
            ia = bnd_index(pos[0] + int(a / side) - r, h, mode)
            ja = bnd_index(pos[1] + mod(a, side) - r, w, mode)
            v = ia >= 0 && ja >= 0 ? x[ia, ja, pos[2]] : 0.0
            below = 0
            same = 0
            for b = 0..side*side-1
                ib = bnd_index(pos[0] + int(b / side) - r, h, mode)
                jb = bnd_index(pos[1] + mod(b, side) - r, w, mode)
                u = ib >= 0 && jb >= 0 ? x[ib, jb, pos[2]] : 0.0
                below += u < v ? 1 : 0
                same += u == v ? 1 : 0
            endfor
            if below <= half && half < below + same
                result = v
                done = 1
            endif
        endif
    endfor
    y[pos] = result
endfunction

function y = immedfilt(x, r, boundary = "clamped")
    check_image(x, "immedfilt")
    mode = boundary_mode(boundary, "immedfilt")
    if !isscalar(r) || r < 0 || r != floor(r)
        error("immedfilt: the radius must be an integer >= 0, not ", r)
    endif
    xr = as_rows(x)
    y = uninit(size(xr))
    parallel_do(size(xr), xr, y, int(r), size(xr, 0), size(xr, 1), mode, median_kernel)
    y = like_input(y, x)
endfunction
