% EXPECT: 1 ^tests/errors/shape_mismatch\.q:3:(5|15): runtime error: .*(shape|size|dimension|mismatch)
% element-wise operators need equal shapes
y = [1, 2, 3] + [1, 2]
