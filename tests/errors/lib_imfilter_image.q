% EXPECT: 1 runtime error: imfilter: the image must be a vec, a matrix or a cube
% A number is not an image.
import "imfilter.q"
y = imfilter(3, ones(3, 3))
