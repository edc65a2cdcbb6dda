% lib/imfilter.q's tiled separable kernels of 9, 11 and 13 taps (lib_imfilter_tiled_sep.q
% has the rest and says what is checked); a halo wider than a tile's 64 flat columns (13
% taps on 6 channels) is refused.
import "lib/filter_ref.q"
import "lib/sep_tiled_check.q"

cases = 0
for s = 3..5
    cases += check_sep_tiled(3 + 2 * s, s)
endfor
g = ones(13) / 13
[y, done] = separable_tiled(test_image(5, 4, 6), g, 6, g, 6, 0)
assert(!done)
print "lib_imfilter_tiled_sep_wide: ", cases, " cases ok"
