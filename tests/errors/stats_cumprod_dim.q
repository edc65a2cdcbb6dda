% EXPECT: 1 ^tests/errors/stats_cumprod_dim\.q:3:5: runtime error: cumprod: dimension -2 out of range
% a negative dimension
c = cumprod([1, 2], -2)
