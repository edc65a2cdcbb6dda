% EXPECT: 1 runtime error: hsv2rgb: the image must be h x w x 3, not of size \[2,2,4\]
% hsv2rgb needs three channels.
import "colortransform.q"
y = hsv2rgb(ones(2, 2, 4))
