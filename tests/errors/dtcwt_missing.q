% EXPECT: 1 dtcwt2d: OpenQuasar does not provide this function of dtcwt\.q
% dtcwt.q is found in lib/ (published denoising code imports it), but its transform is not
% provided: the call names the function and the module.
import "dtcwt.q"

img = zeros(16, 16)
w1 = filtercoeff_farras
w = dtcwt2d(img, w1, w1, 3)
