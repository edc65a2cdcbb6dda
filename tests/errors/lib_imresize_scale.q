% EXPECT: 1 runtime error: imresize: the scale must be positive, not 0
% A scale of 0 is an error, not an empty image.
import "imresize.q"
y = imresize(ones(4, 4), 0, "nearest")
