% EXPECT: 1 ^tests/errors/stats_var_dim\.q:3:5: runtime error: var: the dimension must be an integer, got scalar
% a fractional dimension
v = var([[1, 2], [3, 4]], 0, 0.5)
