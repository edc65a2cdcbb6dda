% EXPECT: 1 ^tests/errors/stats_meshgrid_arg\.q:3:(1|10): runtime error: meshgrid: expected a number or an array, got string
% meshgrid of a string
[X, Y] = meshgrid(0..2, "y")
