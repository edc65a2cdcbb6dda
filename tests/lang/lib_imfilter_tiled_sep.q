% lib/imfilter.q's tiled separable kernels of 3, 5 and 7 taps (the GPU's), called directly
% so that the interpreter and the CPU run them too, against plain host loops
% (lib/filter_ref.q): taps gy and gx different and asymmetric, centres anywhere in them,
% every boundary rule, images of 1 to 3 channels whose sizes are no multiple of a tile's.
% 9 to 13 taps: lib_imfilter_tiled_sep_wide.q.
import "lib/filter_ref.q"
import "lib/sep_tiled_check.q"

cases = 0
for s = 0..2
    cases += check_sep_tiled(3 + 2 * s, s)
endfor
print "lib_imfilter_tiled_sep: ", cases, " cases ok"
