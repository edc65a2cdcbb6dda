% EXPECT: 1 ^tests/errors/stats_cat_mismatch\.q:3:5: runtime error: vertcat: the sizes disagree outside dimension 0: \[1,2\] and \[1,3\]
% vertcat of rows of different lengths
v = vertcat([1, 2], [1, 2, 3])
