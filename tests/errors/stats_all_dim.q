% EXPECT: 1 ^tests/errors/stats_all_dim\.q:3:5: runtime error: all: dimension 16 out of range
% too large a dimension
a = all([1, 1], 16)
