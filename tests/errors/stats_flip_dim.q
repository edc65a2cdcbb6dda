% EXPECT: 1 ^tests/errors/stats_flip_dim\.q:3:5: runtime error: flip: dimension -1 out of range
% flip(x, dim) with a negative dimension
f = flip([1, 2], -1)
