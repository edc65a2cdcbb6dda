% imresize.q: resizing images, shipped with OpenQuasar.
% import "imresize.q" finds this file in OpenQuasar's lib/ folder.
%
%   y = imresize(x, scale, method, antialias)    ceil(scale * [h, w]) pixels
%   y = imresize(x, [rows, cols], method, antialias)
%
% method: "nearest", "bilinear" or "bicubic" (the default, as MATLAB's; Keys' cubic with
% a = -0.5). x is a matrix, a cube (each channel alone) or a vec (a 1 x N row: a result of
% one row is a vec again, imresize(v, [1, n])); the result has x's number of channels.
% MATLAB's pixel-centre convention: output pixel i samples the input at
% u = (i + 0.5) * h / rows - 0.5 (with a scale, h / rows is 1 / scale), so
% imresize(x, 0.5, "nearest") keeps pixels 1, 3, 5, ... and a constant image stays
% constant. Samples outside the image take the nearest edge pixel ('clamped).
% Antialiasing (antialias = true, the default, as MATLAB's): where bilinear or bicubic
% shrinks an axis (scale s < 1 along it), the kernel is widened by 1/s along that axis
% (weight k((u - i) * s) for input pixel i), so each output pixel averages the input it
% covers instead of aliasing a fine pattern; the weights are normalized to sum 1. Nearest
% never antialiases (as MATLAB). antialias = false: the plain interpolation.
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

% The weight of the bilinear (cubic 0) or Keys' bicubic (1) kernel at distance t.
function wt : scalar = __device__ resize_weight(t : scalar, cubic : int)
    wt = 0.0
    if cubic == 1
        wt = cubic_weight(t)
    else
        wt = max(0.0, 1 - abs(t))
    endif
endfunction

% Antialiased resizing: along each axis the kernel widened by f (ry or rx where that axis
% shrinks, else 1), its taps the input pixels within support * f of the sample, clamped at
% the edges; each axis's weights normalized to sum 1.
function [] = __kernel__ imresize_wide_kernel(x : cube'unchecked, y : cube'unchecked'nocopy, _
        ry : scalar, rx : scalar, fy : scalar, fx : scalar, support : scalar, h : int, w : int, _
        cubic : int, pos : ivec3)
    u = (pos[0] + 0.5) * ry - 0.5
    v = (pos[1] + 0.5) * rx - 0.5
    k = pos[2]
    i0 = int(ceil(u - support * fy))
    i1 = int(floor(u + support * fy))
    j0 = int(ceil(v - support * fx))
    j1 = int(floor(v + support * fx))
    wx_sum = 0.0
    for j = j0..j1
        wx_sum += resize_weight((v - j) / fx, cubic)
    endfor
    total = 0.0
    wy_sum = 0.0
    for i = i0..i1
        wy = resize_weight((u - i) / fy, cubic)
        ii = clamp(i, 0, h - 1)
        row = 0.0
        for j = j0..j1
            row += resize_weight((v - j) / fx, cubic) * x[ii, clamp(j, 0, w - 1), k]
        endfor
        total += wy * row
        wy_sum += wy
    endfor
    y[pos] = total / (wy_sum * wx_sum)
endfunction

function y = imresize(x, sz, method = "bicubic", antialias = true)
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
    if antialias && code > 0 && (ry > 1 || rx > 1)
        fy = ry > 1 ? ry : 1.0
        fx = rx > 1 ? rx : 1.0
        support = code == 1 ? 1.0 : 2.0
        parallel_do(size(y), xr, y, ry, rx, fy, fx, support, h, w, code - 1, imresize_wide_kernel)
    else
        parallel_do(size(y), xr, y, ry, rx, h, w, code, imresize_kernel)
    endif
    if rows == 1 && numel(size(x)) == 1
        y = reshape(y, [cols])          % a vec stays a vec
    elseif numel(size(xr)) == 2
        y = reshape(y, [rows, cols])
    endif
endfunction
