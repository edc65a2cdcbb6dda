% EXPECT: 1 ^tests/errors/stats_pow_shape\.q:3:5: runtime error: pow: shape mismatch: \[3\] and \[2\]
% pow of arrays of different shapes
p = pow([1, 2, 3], [1, 2])
