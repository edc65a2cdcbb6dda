% EXPECT: 1 ^tests/errors/stats_unique_complex\.q:3:5: runtime error: unique: complex numbers have no order
% unique sorts, so complex numbers are refused
u = unique([1i, 1i])
