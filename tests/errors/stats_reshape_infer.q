% EXPECT: 1 ^tests/errors/stats_reshape_infer\.q:3:5: runtime error: reshape: 10 elements do not divide into \[0,3\]
% reshape with [] needs a size that divides the count
r = reshape(0..9, [], 3)
