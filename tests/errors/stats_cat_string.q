% EXPECT: 1 ^tests/errors/stats_cat_string\.q:3:5: runtime error: cat: expected a number or an array, got string
% cat of a string
c = cat(0, [1], "x")
