% EXPECT: 1 ^tests/errors/stats_max_dim_form\.q:3:5: runtime error: max: the second argument of max\(x, \[\], dim\) must be \[\]
% max along a dimension takes [] as its second argument (max(a, b) is element-wise)
m = max([[1, 2], [3, 4]], 0, 1)
