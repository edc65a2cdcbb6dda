% EXPECT: 1 ^tests/errors/stats_median_complex\.q:3:5: runtime error: median: complex numbers have no order
% no median of complex numbers
m = median([1i, 2, 3])
