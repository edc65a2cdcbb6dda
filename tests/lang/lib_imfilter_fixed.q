% lib/imfilter.q's fixed-size kernels (3x3, 5x5, 7x7 masks; separable filters of 3 to 13
% taps; images of 1, 2 and 3 channels) against plain host loops: every
% boundary rule, centres at the middle and at the corners of the mask, images whose sizes
% are no multiple of a thread's 8 rows or of the launch's 64 columns (1 x N, N x 1, h x w,
% h x w x 2, h x w x 3), asymmetric taps (a swapped row and column would show). The general
% kernels (any size) are a second reference.
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
nimages = 5
cases = 0

% imfilter: every fixed size, both corners and the middle as the centre
for s = 0..2
    R = 3 + 2 * s
    mask = test_mask(R, R, s)
    for v = 0..nimages-1
        x = as_rows(image_nr(v))
        for t = 0..2
            ctr = t == 0 ? [0, 0] : t == 1 ? [R - 1, R - 1] : [floor(R/2), 1]
            rule = rule_name(mod(s * 5 + v * 3 + t, 6))
            ref = reference_correlate(x, mask, ctr[0], ctr[1], rule)
            [y, done] = imfilter_fixed(x, reshape(mask, [R*R]), R, R, ctr[0], ctr[1], _
                                       boundary_mode(rule, "test"))
            assert(done)
            assert(max_diff(y, ref) < 1e-4)
            % through imfilter (the same kernel) and the general kernel
            assert(max_diff(imfilter(x, mask, ctr, rule), ref) < 1e-4)
            g = uninit(size(x))
            parallel_do([ceil(size(x, 0) / 8), size(x, 1), size(x, 2)], x, g, _
                        reshape(mask, [R*R]), R, R, ctr[0], ctr[1], size(x, 0), size(x, 1), _
                        boundary_mode(rule, "test"), imfilter_kernel)
            assert(max_diff(g, ref) < 1e-4)
            cases += 1
        endfor
    endfor
endfor

% every rule on the colour image with the 5x5 mask, centred
x = image_nr(0)
mask = test_mask(5, 5, 7)
for r = 0..5
    ref = reference_correlate(x, mask, 2, 2, rule_name(r))
    assert(max_diff(imfilter(x, mask, rule_name(r)), ref) < 1e-4)
    cases += 1
endfor

% a vec stays a vec, a matrix a matrix
yv = imfilter(image_nr(1), test_mask(3, 3, 1), "mirror")
assert(numel(size(yv)) == 1 && numel(yv) == 23)
ym = imfilter(image_nr(2), test_mask(3, 3, 1), "mirror")
assert(numel(size(ym)) == 2 && size(ym, 0) == 21 && size(ym, 1) == 10)

% separable: taps gy down the columns and gx along the rows (different, asymmetric), for
% every odd length; the reference is the correlation with their outer product
function outer = outer_product(a, b)
    outer = zeros(numel(a), numel(b))
    for m = 0..numel(a)-1
        for n = 0..numel(b)-1
            outer[m, n] = a[m] * b[n]
        endfor
    endfor
endfunction
for s = 0..5
    T = 3 + 2 * s
    gy = zeros(T)
    gx = zeros(T)
    for n = 0..T-1
        gy[n] = mod((n + 1) * 0.382, 1) - 0.3
        gx[n] = mod((n + 2) * 0.707, 1) - 0.45
    endfor
    for v = 0..nimages-1
        x = as_rows(image_nr(v))
        cy = mod(s + v, T)
        cx = T - 1 - mod(s * 2 + v, T)
        rule = rule_name(mod(s + v * 2, 6))
        ref = reference_correlate(x, outer_product(gy, gx), cy, cx, rule)
        [y, done] = separable_fixed(x, gy, cy, gx, cx, boundary_mode(rule, "test"))
        assert(done)
        assert(max_diff(y, ref) < 1e-4)
        g = uninit(size(x))
        parallel_do([ceil(size(x, 0) / 8), size(x, 1), size(x, 2)], x, g, gy, cy, gx, cx, _
                    size(x, 0), size(x, 1), boundary_mode(rule, "test"), separable_kernel)
        assert(max_diff(g, ref) < 1e-4)
        cases += 1
    endfor
endfor

% gaussian_filter and box_filter take the fixed kernels for odd sizes up to 13
x = image_nr(3)
for r = 0..5
    g = gaussian_taps(1.2, 9)
    ref = reference_correlate(x, outer_product(g, g), 4, 4, rule_name(r))
    assert(max_diff(gaussian_filter(x, 1.2, 9, rule_name(r)), ref) < 1e-4)
    ref = reference_correlate(x, ones(5, 5) / 25, 2, 2, rule_name(r))
    assert(max_diff(box_filter(x, 5, rule_name(r)), ref) < 1e-4)
    cases += 2
endfor
print "lib_imfilter_fixed: ", cases, " cases ok"
