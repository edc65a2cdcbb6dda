% EXPECT: 1 runtime error: rgb2gray: the image must be h x w x 3, not of size \[4,5,2\]
% rgb2gray needs three channels.
import "colortransform.q"
y = rgb2gray(ones(4, 5, 2))
