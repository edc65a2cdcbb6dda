% EXPECT: 1 ^tests/errors/stats_diff_order\.q:3:5: runtime error: diff: the order must be >= 0, got -1
% diff(x, order): a negative order
d = diff([1, 2, 3], -1)
