% EXPECT: 1 ^tests/errors/stats_max_empty_dim\.q:3:(1|10): runtime error: max: empty array
% no maximum of an empty slice
[m, i] = max(zeros(0, 3), [], 0)
