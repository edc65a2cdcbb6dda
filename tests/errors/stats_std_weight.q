% EXPECT: 1 ^tests/errors/stats_std_weight\.q:3:5: runtime error: std: the weight must be 0 or 1, got 2
% std(x, w): w picks n - 1 (0) or n (1)
s = std([1, 2, 3], 2)
