% imresize.q: resizing images, shipped with OpenQuasar.
% import "imresize.q" finds this file in OpenQuasar's lib/ folder.
%
%   y = imresize(x, scale, method)    ceil(scale * [h, w]) pixels
%   y = imresize(x, [rows, cols], method)
%
% method: "nearest", "bilinear" or "bicubic" (the default, as MATLAB's; Keys' cubic with
% a = -0.5). x is a matrix, a cube (each channel alone) or a vec (a 1 x N row: a result of
% one row is a vec again, imresize(v, [1, n])); the result has x's number of channels.
% MATLAB's pixel-centre convention: output pixel i samples the input at
% u = (i + 0.5) * h / rows - 0.5 (with a scale, h / rows is 1 / scale), so
% imresize(x, 0.5, "nearest") keeps pixels 1, 3, 5, ... and a constant image stays
% constant. Samples outside the image take the nearest edge pixel ('clamped).
% No antialiasing: unlike MATLAB's default for shrinking, the kernel is not widened by
% 1/scale, so shrinking a fine pattern aliases; blur first (gaussian_filter) if that matters.
import "imboundary.q"

% Keys' cubic convolution weight (a = -0.5) at distance t.
function wt : scalar = __device__ cubic_weight(t : scalar)
    a = abs(t)
    wt = 0.0
    if a <= 1
        wt = (1.5*a - 2.5)*a*a + 1
    elseif a < 2
        wt = ((-0.5*a + 2.5)*a - 4)*a + 2
    endif
endfunction

function [] = __kernel__ imresize_kernel(x : cube'unchecked, y : cube'unchecked'nocopy, _
        ry : scalar, rx : scalar, h : int, w : int, method : int, pos : ivec3)
    u = (pos[0] + 0.5) * ry - 0.5
    v = (pos[1] + 0.5) * rx - 0.5
    k = pos[2]
    if method == 0
        y[pos] = x[clamp(int(floor(u + 0.5)), 0, h - 1), clamp(int(floor(v + 0.5)), 0, w - 1), k]
    elseif method == 1
        i = int(floor(u))
        j = int(floor(v))
        fu = u - i
        fv = v - j
        i0 = clamp(i, 0, h - 1)
        i1 = clamp(i + 1, 0, h - 1)
        j0 = clamp(j, 0, w - 1)
        j1 = clamp(j + 1, 0, w - 1)
        top = (1 - fv) * x[i0, j0, k] + fv * x[i0, j1, k]
        bottom = (1 - fv) * x[i1, j0, k] + fv * x[i1, j1, k]
        y[pos] = (1 - fu) * top + fu * bottom
    else
        i = int(floor(u))
        j = int(floor(v))
        total = 0.0
        for m = -1..2
            wy = cubic_weight(u - (i + m))
            ii = clamp(i + m, 0, h - 1)
            row = 0.0
            for n = -1..2
                row += cubic_weight(v - (j + n)) * x[ii, clamp(j + n, 0, w - 1), k]
            endfor
            total += wy * row
        endfor
        y[pos] = total
    endif
endfunction

function y = imresize(x, sz, method = "bicubic")
    if isscalar(x) || numel(size(x)) > 3 || numel(x) == 0
        error("imresize: the image must be a non-empty vec, matrix or cube")
    endif
    code = -1
    match method with
    | "nearest" -> code = 0
    | "bilinear" -> code = 1
    | "bicubic" -> code = 2
    | _ -> code = -1
    endmatch
    if code < 0
        error("imresize: unknown method '", method, "' (nearest, bilinear or bicubic)")
    endif
    xr = as_rows(x)
    h = size(xr, 0)
    w = size(xr, 1)
    if isscalar(sz) || numel(sz) == 1
        s = isscalar(sz) ? sz : sz[0]
        if !(s > 0)
            error("imresize: the scale must be positive, not ", s)
        endif
        rows = int(ceil(h * s))
        cols = int(ceil(w * s))
        ry = 1 / s
        rx = 1 / s
    elseif numel(sz) == 2
        rows = int(sz[0])
        cols = int(sz[1])
        if rows < 1 || cols < 1 || rows != sz[0] || cols != sz[1]
            error("imresize: the size must be two positive integers, not ", sz)
        endif
        ry = h / rows
        rx = w / cols
    else
        error("imresize: the second argument must be a scale or [rows, cols], not ", sz)
        rows = 0
        cols = 0
        ry = 1
        rx = 1
    endif
    y = uninit(rows, cols, size(xr, 2))
    parallel_do(size(y), xr, y, ry, rx, h, w, code, imresize_kernel)
    if rows == 1 && numel(size(x)) == 1
        y = reshape(y, [cols])          % a vec stays a vec
    elseif numel(size(xr)) == 2
        y = reshape(y, [rows, cols])
    endif
endfunction
