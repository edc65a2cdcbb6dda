% EXPECT: 1 ^tests/errors/stats_median_args\.q:3:(5|11): runtime error: .*(argument|median)
% median takes at most two arguments
m = median([1, 2], 0, 1)
