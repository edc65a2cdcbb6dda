% EXPECT: 1 ^tests/errors/stats_unique_option\.q:3:5: runtime error: unique: unknown option "rows"
% unique knows sorted, stable, first and last
u = unique([1, 2, 1], "rows")
