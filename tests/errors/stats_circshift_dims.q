% EXPECT: 1 ^tests/errors/stats_circshift_dims\.q:3:5: runtime error: circshift: expected one shift with a dimension, got vec
% circshift(x, k, dim) takes one shift
c = circshift([1, 2, 3], [1, 2], 1)
