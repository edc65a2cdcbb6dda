% lib/imfilter.q's fixed-size 2-D kernels (3x3, 5x5, 7x7 masks) against plain host loops
% (lib/filter_ref.q): every boundary rule, centres at the middle and at the corners of the
% mask, images whose sizes are no multiple of a thread's 8 rows or of the launch's 64
% columns (1 x N, N x 1, h x w, h x w x 2, h x w x 3), asymmetric masks (a swapped row and
% column would show). The general kernel (any size) is a second reference. The separable
% kernels: lib_imfilter_separable.q and lib_imfilter_separable_wide.q (one file would take more
% than the suite's 120 s per test for NVRTC on cudacheck).
import "lib/filter_ref.q"

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

print "lib_imfilter_fixed: ", cases, " cases ok"
