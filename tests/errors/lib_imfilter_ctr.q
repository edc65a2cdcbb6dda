% EXPECT: 1 runtime error: imfilter: the centre must be \[row, col\] of the mask, not \[1,1,1\]
% A centre of three elements is an error naming it.
import "imfilter.q"
y = imfilter(ones(4, 4), ones(3, 3), [1, 1, 1])
