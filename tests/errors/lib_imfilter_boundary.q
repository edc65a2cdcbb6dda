% EXPECT: 1 lib/imboundary\.q:[0-9]+:[0-9]+: runtime error: imfilter: unknown boundary rule 'reflect'
% imfilter's fourth argument names a boundary rule of imboundary.q; others are an error.
import "imfilter.q"
y = imfilter(ones(4, 4), ones(3, 3) / 9, [1, 1], "reflect")
