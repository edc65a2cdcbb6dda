% imboundary.q: boundary rules, padding and fftshift2, shipped with OpenQuasar.
% import "imboundary.q" finds this file in OpenQuasar's lib/ folder; imfilter.q, imresize.q,
% immorphology.q, immedfilt.q and colored_noise.q import it.
%
% The boundary modifiers 'safe, 'circular, 'mirror, 'clamped, 'checked and 'unchecked of
% array types are built into OpenQuasar (docs/language.md). The library functions take
% the boundary rule as a string instead, since one function serves them all:
%   "zero" (or "safe")  zero outside the image
%   "mirror"            Quasar's 'mirror: |i| mod 2N, then 2N-1-m where m >= N
%                       (-1 -> 1, N -> N-1)
%   "circular"          periodic: i mod N
%   "clamped"           the nearest edge sample (also "replicate", MATLAB's name)
%   "symmetric"         MATLAB's symmetric: the edge repeats on both sides (-1 -> 0, N -> N-1)
%
%   n = boundary_mode(name, caller)   the rule's number for bnd_index (an error names caller)
%   i = bnd_index(i, N, mode)         __device__: the index read for i, -1 for zero outside
%   y = padarray(x, pad, boundary)    x extended by pad = [rows, cols] (or one number) on
%                                     every side, per channel
%   y = fftshift2(x), ifftshift2(x)   the zero frequency to the centre and back (real and
%                                     complex arrays; along the first two dimensions)

function mode : int = boundary_mode(name, caller : string)
    mode = -1
    match name with
    | "zero" -> mode = 0
    | "safe" -> mode = 0
    | "mirror" -> mode = 1
    | "circular" -> mode = 2
    | "clamped" -> mode = 3
    | "replicate" -> mode = 3
    | "symmetric" -> mode = 4
    | _ -> mode = -1
    endmatch
    if mode < 0
        error(caller, ": unknown boundary rule '", name, "'", _
              " (zero, safe, mirror, circular, clamped, replicate or symmetric)")
    endif
endfunction

% true when v is the name of a boundary rule (so a caller may take it in place of a centre)
function ok : bool = is_rule_name(v)
    ok = false
    match v with
    | "zero" -> ok = true
    | "safe" -> ok = true
    | "mirror" -> ok = true
    | "circular" -> ok = true
    | "clamped" -> ok = true
    | "replicate" -> ok = true
    | "symmetric" -> ok = true
    | _ -> ok = false
    endmatch
endfunction

% The index read in place of i in a dimension of n samples; -1 means "zero" (outside).
function j : int = __device__ bnd_index(i : int, n : int, mode : int)
    j = i
    if i < 0 || i >= n
        if mode == 0
            j = -1
        elseif mode == 1
            m = mod(abs(i), 2*n)
            j = m >= n ? 2*n - 1 - m : m
        elseif mode == 2
            j = mod(mod(i, n) + n, n)
        elseif mode == 3
            j = i < 0 ? 0 : n - 1
        else
            m = mod(mod(i, 2*n) + 2*n, 2*n)
            j = m >= n ? 2*n - 1 - m : m
        endif
    endif
endfunction

% A vec is a 1 x N row (Quasar's rule): the library works on it as a 1 x N matrix.
function y = as_rows(x)
    y = numel(size(x)) == 1 ? reshape(x, [1, numel(x)]) : x
endfunction

% The result back in the shape of x: a vec in, a vec out.
function y = like_input(y, x)
    if numel(size(x)) == 1
        y = reshape(y, [numel(y)])
    endif
endfunction

% A pair [rows, cols] from one number or two (a window size, a padding, a centre).
function p = pair_of(v, caller : string, what : string)
    if isscalar(v)
        p = [v, v]
    elseif numel(v) == 1
        p = [v[0], v[0]]
    elseif numel(v) == 2
        p = [v[0], v[1]]
    else
        error(caller, ": ", what, " must have one or two elements, not ", numel(v))
        p = [0, 0]
    endif
endfunction

function y = padarray(x, pad, boundary = "zero")
    mode = boundary_mode(boundary, "padarray")
    p = pair_of(pad, "padarray", "the padding")
    if p[0] < 0 || p[1] < 0
        error("padarray: the padding must not be negative, not ", p)
    endif
    function [] = __kernel__ extend(x : cube'unchecked, y : cube'unchecked'nocopy, py : int, _
                                    px : int, h : int, w : int, mode : int, pos : ivec3)
        i = bnd_index(pos[0] - py, h, mode)
        j = bnd_index(pos[1] - px, w, mode)
        y[pos] = i >= 0 && j >= 0 ? x[i, j, pos[2]] : 0.0
    endfunction
    xr = as_rows(x)
    h = size(xr, 0)
    w = size(xr, 1)
    c = size(xr, 2)
    if h == 0 || w == 0
        error("padarray: the image is empty")
    endif
    y = uninit(h + 2*p[0], w + 2*p[1], c)
    parallel_do(size(y), xr, y, int(p[0]), int(p[1]), h, w, mode, extend)
    if numel(size(xr)) == 2
        y = reshape(y, [size(y, 0), size(y, 1)])
    endif
endfunction

% y[i, j] = x[(i + si) mod h, (j + sj) mod w] over the first two dimensions.
function y = circ_shift2(x, si : int, sj : int, caller : string)
    function [] = __kernel__ shift(x, y, si : int, sj : int, h : int, w : int, pos : ivec3)
        y[pos] = x[mod(pos[0] + si, h), mod(pos[1] + sj, w), pos[2]]
    endfunction
    if isscalar(x) || numel(size(x)) > 3 || numel(x) == 0
        error(caller, ": expected a non-empty vec, matrix or cube")
    endif
    xr = as_rows(x)
    y = copy(xr)
    parallel_do(size(xr), xr, y, si, sj, size(xr, 0), size(xr, 1), shift)
    y = like_input(y, x)
endfunction

% The zero frequency (element [0,0]) moves to [floor(h/2), floor(w/2)], as MATLAB's fftshift
% of a matrix does; ifftshift2 undoes it (they differ for odd sizes).
function y = fftshift2(x)
    xr = isscalar(x) ? x : as_rows(x)
    y = circ_shift2(x, int(ceil(size(xr, 0) / 2)), int(ceil(size(xr, 1) / 2)), "fftshift2")
endfunction

function y = ifftshift2(x)
    xr = isscalar(x) ? x : as_rows(x)
    y = circ_shift2(x, int(floor(size(xr, 0) / 2)), int(floor(size(xr, 1) / 2)), "ifftshift2")
endfunction
