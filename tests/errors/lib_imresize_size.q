% EXPECT: 1 runtime error: imresize: the size must be two positive integers, not \[2.5,3\]
% A size [rows, cols] must be whole.
import "imresize.q"
y = imresize(ones(4, 4), [2.5, 3], "bilinear")
