% EXPECT: 1 ^tests/errors/stats_sort_complex\.q:3:5: runtime error: sort: complex numbers have no order
% sort has no order for complex numbers (sort(abs(z)) does)
s = sort([1i, 2])
