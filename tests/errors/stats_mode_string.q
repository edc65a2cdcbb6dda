% EXPECT: 1 ^tests/errors/stats_mode_string\.q:3:5: runtime error: mode: expected a number or an array, got string
% mode of a string
m = mode("abc")
