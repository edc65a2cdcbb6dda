% EXPECT: 1 runtime error: padarray: the padding must not be negative, not \[-1,-1\]
% padarray cannot crop.
import "imboundary.q"
y = padarray(ones(4, 4), -1, "mirror")
