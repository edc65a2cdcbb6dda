% EXPECT: 1 runtime error: gaussian_filter: sigma must be positive, not -1
% A negative sigma is an error, not an empty filter.
import "imfilter.q"
y = gaussian_filter(ones(4, 4), -1)
