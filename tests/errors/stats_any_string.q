% EXPECT: 1 ^tests/errors/stats_any_string\.q:3:5: runtime error: any: expected a number or an array, got string
% any of a string
a = any("x")
