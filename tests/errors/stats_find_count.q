% EXPECT: 1 ^tests/errors/stats_find_count\.q:3:5: runtime error: find: the count must be >= 0, got -1
% find(x, k): k is a count
f = find([1, 0, 1], -1)
