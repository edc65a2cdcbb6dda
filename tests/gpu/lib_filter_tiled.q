% lib/imfilter.q's tiled GPU kernels (imfilter and gaussian_filter take them on --target
% cuda) against plain host loops (tests/lang/lib/filter_ref.q) on images larger than a tile
% (70 x 150 x 3: three tiles across, rows no multiple of 8) and of 1, 2 and 5 channels: every
% rule, centres off the middle, 3x3 to 7x7 masks, separable taps of 3 to 13; a halo too wide
% for a tile (7 taps x 12 channels) takes the fixed kernels. Through imfilter_tiled and
% separable_tiled directly as well, so the CPU runs them too.
import "../lang/lib/filter_ref.q"

function outer = outer_product(a, b)
    outer = zeros(numel(a), numel(b))
    for m = 0..numel(a)-1
        for n = 0..numel(b)-1
            outer[m, n] = a[m] * b[n]
        endfor
    endfor
endfunction

function x = image_of(v)
    x = test_image(70, 150, 3)
    if v == 1
        x = test_image(19, 40, 1)
    elseif v == 2
        x = test_image(33, 70, 2)
    elseif v == 3
        x = test_image(11, 30, 5)
    endif
endfunction

cases = 0
for v = 0..3
    x = image_of(v)
    for R = 3..2..7
        mask = test_mask(R, R, v)
        rule = rule_name(mod(v + R, 6))
        ref = reference_correlate(x, mask, 1, R - 2, rule)
        assert(max_diff(imfilter(x, mask, [1, R - 2], rule), ref) < 1e-4)
        [y, done] = imfilter_tiled(x, reshape(mask, [R*R]), R, R, 1, R - 2, boundary_mode(rule, "t"))
        assert(done && max_diff(y, ref) < 1e-4)
        cases += 1
    endfor
    for T = 3..2..13
        gy = zeros(T)
        gx = zeros(T)
        for n = 0..T-1
            gy[n] = mod((n + 1) * 0.382, 1) - 0.3
            gx[n] = mod((n + 2) * 0.707, 1) - 0.45
        endfor
        [cy, cx] = [mod(v + T, T), T - 1 - mod(v, T)]
        rule = rule_name(mod(v * 2 + T, 6))
        ref = reference_correlate(x, outer_product(gy, gx), cy, cx, rule)
        [y, done] = separable_tiled(x, gy, cy, gx, cx, boundary_mode(rule, "t"))
        assert(done == ((T - 1) * size(x, 2) <= 64))
        if done
            assert(max_diff(y, ref) < 1e-4)
        endif
        [y, done] = separable_fixed(x, gy, cy, gx, cx, boundary_mode(rule, "t"))
        assert(done && max_diff(y, ref) < 1e-4)
        cases += 1
    endfor
endfor
% too wide a halo for a tile: the fixed kernel
x = test_image(20, 9, 12)
ref = reference_correlate(x, test_mask(7, 7, 1), 3, 3, "mirror")
[y, done] = imfilter_tiled(x, reshape(test_mask(7, 7, 1), [49]), 7, 7, 3, 3, 1)
assert(!done)
assert(max_diff(imfilter(x, test_mask(7, 7, 1), "mirror"), ref) < 1e-4)
g = gaussian_taps(1.5)
x = image_of(0)
assert(max_diff(gaussian_filter(x, 1.5, 0, "clamped"), _
                reference_correlate(x, outer_product(g, g), 5, 5, "clamped")) < 1e-4)
print "lib_filter_tiled: ", cases, " cases ok"
