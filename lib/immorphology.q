% immorphology.q: grey-scale morphology with a flat structuring element, shipped with
% OpenQuasar. import "immorphology.q" finds this file in OpenQuasar's lib/ folder.
%
%   y = imerode(x, mask, ctr)    y[p] = min of x[p + b] over b in B
%   y = imdilate(x, mask, ctr)   y[p] = max of x[p - b] over b in B
%   y = imopen(x, mask, ctr)     imdilate(imerode(x)): removes bright details smaller than B
%   y = imclose(x, mask, ctr)    imerode(imdilate(x)): removes dark details smaller than B
%
% B is the set of offsets [m, n] - ctr of the mask's non-zero elements; ctr defaults to
% [floor(rows/2), floor(cols/2)] (published code: imopen(y, ones(3,3), [1,1])). The dilation
% reflects B (MATLAB's rule), so imopen(x) <= x <= imclose(x) and both are idempotent for
% any mask and centre. Samples outside the image are left out of the minimum and maximum
% (MATLAB pads erosion with +Inf and dilation with -Inf): a pixel whose window holds no
% sample inside the image (possible only when the mask's centre element is 0) gets +Inf
% (erosion) or -Inf (dilation), as in MATLAB. x is a vec, matrix or cube (each channel
% alone).
import "imfilter.q"

% dilate = 0: minimum over x[p + b]; dilate = 1: maximum over x[p - b].
function [] = __kernel__ morph_kernel(x : cube'unchecked, y : cube'unchecked'nocopy, _
        mask : vec'unchecked, rows : int, cols : int, cy : int, cx : int, h : int, w : int, _
        dilate : int, empty : scalar, pos : ivec3)
    s = dilate == 1 ? -1 : 1
    best = empty
    found = 0
    for m = 0..rows-1
        i = pos[0] + s * (m - cy)
        for n = 0..cols-1
            j = pos[1] + s * (n - cx)
            if mask[m*cols + n] != 0 && i >= 0 && i < h && j >= 0 && j < w
                v = x[i, j, pos[2]]
                if found == 0
                    best = v
                    found = 1
                elseif dilate == 1
                    best = max(best, v)
                else
                    best = min(best, v)
                endif
            endif
        endfor
    endfor
    y[pos] = best
endfunction

function y = morph(x, mask, ctr, dilate : int, caller : string)
    check_image(x, caller)
    [rows, cols, cy, cx] = mask_shape(mask, ctr, caller)
    taps = isscalar(mask) ? ones(1) * mask : reshape(mask, [rows*cols])
    xr = as_rows(x)
    y = uninit(size(xr))
    parallel_do(size(xr), xr, y, taps, rows, cols, cy, cx, size(xr, 0), size(xr, 1), _
                dilate, dilate == 1 ? -1/0 : 1/0, morph_kernel)
    y = like_input(y, x)
endfunction

function y = imerode(x, mask, ctr = -1)
    y = morph(x, mask, ctr, 0, "imerode")
endfunction

function y = imdilate(x, mask, ctr = -1)
    y = morph(x, mask, ctr, 1, "imdilate")
endfunction

function y = imopen(x, mask, ctr = -1)
    y = morph(morph(x, mask, ctr, 0, "imopen"), mask, ctr, 1, "imopen")
endfunction

function y = imclose(x, mask, ctr = -1)
    y = morph(morph(x, mask, ctr, 1, "imclose"), mask, ctr, 0, "imclose")
endfunction
