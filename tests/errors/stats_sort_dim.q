% EXPECT: 1 ^tests/errors/stats_sort_dim\.q:3:5: runtime error: sort: dimension -1 out of range
% dimensions are 0-based and not negative
s = sort([3, 1], -1)
