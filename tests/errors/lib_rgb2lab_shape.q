% EXPECT: 1 runtime error: rgb2lab: the image must be h x w x 3, not of size \[4,5\]
% Colour transforms need three channels.
import "colortransform.q"
y = rgb2lab(ones(4, 5))
