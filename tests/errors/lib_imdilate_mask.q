% EXPECT: 1 runtime error: imdilate: the mask must be a vector or a matrix, not of size \[3,3,3\]
% A structuring element is 2-D.
import "immorphology.q"
y = imdilate(ones(4, 4), ones(3, 3, 3))
