% EXPECT: 1 ^tests/errors/stats_horzcat_mismatch\.q:3:5: runtime error: horzcat: the sizes disagree outside dimension 1: \[2,2\] and \[3,1\]
% horzcat of matrices with different row counts
h = horzcat(ones(2, 2), ones(3, 1))
