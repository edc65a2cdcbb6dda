% lib/imfilter.q's tiled kernels (the GPU's: imfilter and gaussian_filter take them on
% --target cuda), called directly here so that the interpreter and the CPU run them too:
% 3x3, 5x5 and 7x7 masks against plain host loops (lib/filter_ref.q), every boundary rule,
% centres at the corners and off the middle, images of 1 to 3 channels whose sizes are no
% multiple of a tile's 8 rows or 128 flat columns (1 x N, N x 1 too); a halo too wide for
% a tile is refused (done false). The separable ones: lib_imfilter_tiled_sep*.q (NVRTC's
% time on cudacheck: three large kernels a file).
import "lib/filter_ref.q"

cases = 0
for s = 0..2
    R = 3 + 2 * s
    mask = test_mask(R, R, s + 3)
    for v = 0..4
        x = as_rows(image_nr(v))
        t = mod(s + v, 3)
        ctr = t == 0 ? [0, 0] : t == 1 ? [R - 1, R - 1] : [floor(R/2), 1]
        rule = rule_name(mod(s * 5 + v * 7, 6))
        ref = reference_correlate(x, mask, ctr[0], ctr[1], rule)
        [y, done] = imfilter_tiled(x, reshape(mask, [R*R]), R, R, ctr[0], ctr[1], _
                                   boundary_mode(rule, "test"))
        assert(done)
        assert(max_diff(y, ref) < 1e-4)
        cases += 1
    endfor
endfor
% wider than a tile: 150 flat columns, two tiles across
x = test_image(10, 50, 3)
mask = test_mask(5, 5, 2)
[y, done] = imfilter_tiled(x, reshape(mask, [25]), 5, 5, 2, 2, boundary_mode("mirror", "test"))
assert(done && max_diff(y, reference_correlate(x, mask, 2, 2, "mirror")) < 1e-4)
% a halo of 6 x 11 = 66 flat columns does not fit a tile's 64
[y, done] = imfilter_tiled(test_image(4, 3, 11), reshape(test_mask(7, 7, 0), [49]), 7, 7, _
                           3, 3, 0)
assert(!done)
print "lib_imfilter_tiled: ", cases + 1, " cases ok"
