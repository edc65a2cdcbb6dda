% EXPECT: 1 ^tests/errors/stats_histc_dim\.q:3:5: runtime error: histc: dimension -1 out of range
% histc's dimension is 0-based
h = histc([1, 2], [0, 2], -1)
