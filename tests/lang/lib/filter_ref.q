% Helpers of the tests of lib/imfilter.q's fixed-size kernels (lib_imfilter_fixed.q,
% lib_imfilter_separable.q, lib_imfilter_separable_wide.q): a plain-loop correlation with every
% boundary rule, test images and masks.
import "imfilter.q"

% The index each rule reads for i in 0..n-1 extended, case by case (docs/library.md);
% -1 is a zero sample.
function j = ref_index(i, n, rule)
    j = i
    if i < 0 || i >= n
        if rule == "zero" || rule == "safe"
            j = -1
        elseif rule == "clamped"
            j = i < 0 ? 0 : n - 1
        elseif rule == "circular"
            while j < 0
                j = j + n
            endwhile
            while j >= n
                j = j - n
            endwhile
        elseif rule == "mirror"
            j = abs(i)
            while j >= 2*n
                j = j - 2*n
            endwhile
            if j >= n
                j = 2*n - 1 - j
            endif
        else
            while j < 0 || j >= n
                j = j < 0 ? -1 - j : 2*n - 1 - j
            endwhile
        endif
    endif
endfunction

% y[i,j,k] = sum over m,n of x[i+m-cy, j+n-cx, k] * mask[m,n], by the rule
function y = reference_correlate(x, mask, cy, cx, rule)
    [H, W, C] = [size(x, 0), size(x, 1), size(x, 2)]
    y = zeros(H, W, C)
    for i = 0..H-1
        for j = 0..W-1
            for c = 0..C-1
                total = 0.0
                for m = 0..size(mask, 0)-1
                    ii = ref_index(i + m - cy, H, rule)
                    for n = 0..size(mask, 1)-1
                        jj = ref_index(j + n - cx, W, rule)
                        if ii >= 0 && jj >= 0
                            total += x[ii, jj, c] * mask[m, n]
                        endif
                    endfor
                endfor
                y[i, j, c] = total
            endfor
        endfor
    endfor
endfunction

% numbers in [-1, 1) that no two pixels share
function x = test_image(H, W, C)
    x = zeros(H, W, C)
    for i = 0..H-1
        for j = 0..W-1
            for c = 0..C-1
                x[i, j, c] = mod(i * 0.37 + j * 0.113 + c * 0.291 + i * j * 0.0071, 2) - 1
            endfor
        endfor
    endfor
endfunction

function mask = test_mask(R, C, seed)
    mask = zeros(R, C)
    for m = 0..R-1
        for n = 0..C-1
            mask[m, n] = mod((m * C + n + seed) * 0.618, 1) - 0.4
        endfor
    endfor
endfunction

% the largest difference of two images of one shape (the reference's has 3 dimensions)
function d = max_diff(a, b)
    assert(numel(a) == numel(b) && size(a, 0) == size(b, 0) && size(a, 1) == size(b, 1))
    d = max(abs(a - b))
endfunction

function rule = rule_name(k)
    rule = "zero"
    match k with
    | 1 -> rule = "safe"
    | 2 -> rule = "mirror"
    | 3 -> rule = "circular"
    | 4 -> rule = "clamped"
    | 5 -> rule = "symmetric"
    | _ -> rule = "zero"
    endmatch
endfunction

% 26 x 19 x 3, 1 x 23 (a vec), 21 x 10, 12 x 9 x 2, 17 x 1 (a column)
function x = image_nr(v)
    x = test_image(26, 19, 3)
    if v == 1
        x = test_image(1, 23, 1)[0, :]
    elseif v == 2
        x = test_image(21, 10, 1)[:, :, 0]
    elseif v == 3
        x = test_image(12, 9, 2)
    elseif v == 4
        x = test_image(17, 1, 1)[:, :, 0]
    endif
endfunction
