% colortransform.q: colour transforms, shipped with OpenQuasar.
% import "colortransform.q" finds this file in OpenQuasar's lib/ folder.
%
% Every function takes an h x w x 3 cube and gives an h x w x 3 cube (rgb2gray: an h x w
% matrix). RGB values are 0..255, as imread gives them; the other spaces use these ranges:
%   y = rgb2gray(x)    0.299 R + 0.587 G + 0.114 B (ITU-R BT.601 luma), 0..255
%   y = rgb2hsv(x)     H, S, V all in 0..1 (H = 0 for grey; V = max(R,G,B) / 255)
%   x = hsv2rgb(y)     back to 0..255 (H wraps around: 1 is red, as 0)
%   y = rgb2ycbcr(x)   BT.601 studio range: Y 16..235, Cb and Cr 16..240 (MATLAB's, x 255)
%   x = ycbcr2rgb(y)   the exact inverse of rgb2ycbcr
%   y = rgb2xyz(x)     sRGB (IEC 61966-2-1) with its gamma removed, D65: white is
%                      X = 0.9505, Y = 1, Z = 1.089 (MATLAB's scale)
%   x = xyz2rgb(y)     back to 0..255, sRGB gamma applied; not clipped (out-of-gamut
%                      colours give values outside 0..255)
%   y = rgb2lab(x)     CIE 1976 L*a*b*, D65 white: L in 0..100, a and b about -128..127
%   x = lab2rgb(y)     back to 0..255, not clipped
% Values outside 0..255 are transformed by the same formulas (nothing is clipped), so every
% pair is an exact inverse up to rounding.

% The sRGB matrix from linear RGB to XYZ (D65) and the D65 white point.
function M : mat = srgb_to_xyz_matrix()
    M = [[0.4124564, 0.3575761, 0.1804375], _
         [0.2126729, 0.7151522, 0.0721750], _
         [0.0193339, 0.1191920, 0.9503041]]
endfunction

% The inverse of a 3 x 3 matrix by cofactors (host code).
function B : mat = inverse3(A : mat)
    B = zeros(3, 3)
    for r = 0..2
        for c = 0..2
            r1 = mod(r + 1, 3)
            r2 = mod(r + 2, 3)
            c1 = mod(c + 1, 3)
            c2 = mod(c + 2, 3)
            B[c, r] = A[r1, c1] * A[r2, c2] - A[r1, c2] * A[r2, c1]
        endfor
    endfor
    B = B / (A[0, 0] * B[0, 0] + A[0, 1] * B[1, 0] + A[0, 2] * B[2, 0])
endfunction

% Affine 3 x 4 maps: [M, offset] applied to a column [R; G; B].
function A : mat = affine3(M : mat, offset : vec)
    A = zeros(3, 4)
    for r = 0..2
        for c = 0..2
            A[r, c] = M[r, c]
        endfor
        A[r, 3] = offset[r]
    endfor
endfunction

function A : mat = ycbcr_affine()
    M = [[65.481, 128.553, 24.966], [-37.797, -74.203, 112.0], [112.0, -93.786, -18.214]] / 255
    A = affine3(M, [16, 128, 128])
endfunction

function A : mat = ycbcr_inverse_affine()
    F = ycbcr_affine()
    M = inverse3([[F[0,0], F[0,1], F[0,2]], [F[1,0], F[1,1], F[1,2]], [F[2,0], F[2,1], F[2,2]]])
    A = affine3(M, -(M * transpose([16, 128, 128])))
endfunction

function v : scalar = __device__ srgb_linear(c : scalar)
    v = c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ^ 2.4
endfunction

function c : scalar = __device__ srgb_gamma(v : scalar)
    c = v <= 0.0031308 ? 12.92 * v : 1.055 * v ^ (1 / 2.4) - 0.055
endfunction

% CIE's f(t) = t^(1/3) above (6/29)^3, linear below, and its inverse.
function f : scalar = __device__ lab_f(t : scalar)
    f = t > 216 / 24389 ? t ^ (1 / 3) : t * (841 / 108) + 4 / 29
endfunction

function t : scalar = __device__ lab_finv(f : scalar)
    t = f > 6 / 29 ? f * f * f : (f - 4 / 29) * (108 / 841)
endfunction

function y : vec3 = __device__ apply3(M : mat'unchecked, a : scalar, b : scalar, c : scalar)
    y = [M[0,0]*a + M[0,1]*b + M[0,2]*c + M[0,3], _
         M[1,0]*a + M[1,1]*b + M[1,2]*c + M[1,3], _
         M[2,0]*a + M[2,1]*b + M[2,2]*c + M[2,3]]
endfunction

function y : vec3 = __device__ rgb_to_hsv(r : scalar, g : scalar, b : scalar)
    mx = max(r, max(g, b))
    mn = min(r, min(g, b))
    d = mx - mn
    h = 0.0
    if d > 0
        if mx == r
            h = (g - b) / d
        elseif mx == g
            h = (b - r) / d + 2
        else
            h = (r - g) / d + 4
        endif
        h = h / 6
        if h < 0
            h = h + 1
        endif
    endif
    y = [h, mx > 0 ? d / mx : 0.0, mx / 255]
endfunction

% Seed 001's hsv2rgb, with the sector taken modulo 6 (H = 1 is red, like H = 0).
function y : vec3 = __device__ hsv_to_rgb(h : scalar, s : scalar, v : scalar)
    hh = h * 6
    sector = mod(int(floor(hh)), 6)
    sector = sector < 0 ? sector + 6 : sector
    f = hh - floor(hh)
    v = 255 * v
    p = v * (1 - s)
    q = v * (1 - f * s)
    t = v * (1 - (1 - f) * s)
    y = [v, t, p]
    if sector == 1
        y = [q, v, p]
    elseif sector == 2
        y = [p, v, t]
    elseif sector == 3
        y = [p, q, v]
    elseif sector == 4
        y = [t, p, v]
    elseif sector == 5
        y = [v, p, q]
    endif
endfunction

% One kernel for every transform: code 0 affine (M is 3 x 4), 1 rgb2xyz, 2 xyz2rgb,
% 3 rgb2lab, 4 lab2rgb (M: the XYZ matrix or its inverse), 5 rgb2hsv, 6 hsv2rgb.
function [] = __kernel__ color_kernel(x : cube'unchecked, y : cube'unchecked'nocopy, _
        M : mat'unchecked, code : int, pos : ivec2)
    a = x[pos[0], pos[1], 0]
    b = x[pos[0], pos[1], 1]
    c = x[pos[0], pos[1], 2]
    o = [a, b, c]
    if code == 0
        o = apply3(M, a, b, c)
    elseif code == 1 || code == 3
        o = apply3(M, srgb_linear(a / 255), srgb_linear(b / 255), srgb_linear(c / 255))
        if code == 3
            fx = lab_f(o[0] / 0.95047)
            fy = lab_f(o[1])
            fz = lab_f(o[2] / 1.08883)
            o = [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)]
        endif
    elseif code == 2 || code == 4
        if code == 4
            fy = (a + 16) / 116
            a = 0.95047 * lab_finv(fy + b / 500)
            c = 1.08883 * lab_finv(fy - c / 200)
            b = lab_finv(fy)
        endif
        o = apply3(M, a, b, c)
        o = [255 * srgb_gamma(o[0]), 255 * srgb_gamma(o[1]), 255 * srgb_gamma(o[2])]
    elseif code == 5
        o = rgb_to_hsv(a, b, c)
    else
        o = hsv_to_rgb(a, b, c)
    endif
    y[pos[0], pos[1], 0] = o[0]
    y[pos[0], pos[1], 1] = o[1]
    y[pos[0], pos[1], 2] = o[2]
endfunction

function y = color_apply(x, M, code : int, caller : string)
    if isscalar(x) || numel(size(x)) != 3 || size(x, 2) != 3
        error(caller, ": the image must be h x w x 3, not of size ", size(x))
    endif
    y = uninit(size(x))
    parallel_do([size(x, 0), size(x, 1)], x, y, M, code, color_kernel)
endfunction

function y = rgb2ycbcr(x)
    y = color_apply(x, ycbcr_affine(), 0, "rgb2ycbcr")
endfunction

function y = ycbcr2rgb(x)
    y = color_apply(x, ycbcr_inverse_affine(), 0, "ycbcr2rgb")
endfunction

function y = rgb2xyz(x)
    y = color_apply(x, affine3(srgb_to_xyz_matrix(), [0, 0, 0]), 1, "rgb2xyz")
endfunction

function y = xyz2rgb(x)
    y = color_apply(x, affine3(inverse3(srgb_to_xyz_matrix()), [0, 0, 0]), 2, "xyz2rgb")
endfunction

function y = rgb2lab(x)
    y = color_apply(x, affine3(srgb_to_xyz_matrix(), [0, 0, 0]), 3, "rgb2lab")
endfunction

function y = lab2rgb(x)
    y = color_apply(x, affine3(inverse3(srgb_to_xyz_matrix()), [0, 0, 0]), 4, "lab2rgb")
endfunction

function y = rgb2hsv(x)
    y = color_apply(x, zeros(3, 4), 5, "rgb2hsv")
endfunction

function y = hsv2rgb(x)
    y = color_apply(x, zeros(3, 4), 6, "hsv2rgb")
endfunction

function y = rgb2gray(x)
    if isscalar(x) || numel(size(x)) != 3 || size(x, 2) != 3
        error("rgb2gray: the image must be h x w x 3, not of size ", size(x))
    endif
    function [] = __kernel__ gray_kernel(x : cube'unchecked, y : mat'unchecked'nocopy, pos : ivec2)
        y[pos] = 0.299 * x[pos[0], pos[1], 0] + 0.587 * x[pos[0], pos[1], 1] + _
                 0.114 * x[pos[0], pos[1], 2]
    endfunction
    y = uninit(size(x, 0), size(x, 1))
    parallel_do(size(y), x, y, gray_kernel)
endfunction
