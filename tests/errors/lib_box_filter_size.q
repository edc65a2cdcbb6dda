% EXPECT: 1 runtime error: box_filter: the filter size must be at least 1, not \[0,3\]
% A window of no rows is an error.
import "imfilter.q"
y = box_filter(ones(4, 4), [0, 3])
