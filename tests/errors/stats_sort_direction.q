% EXPECT: 1 ^tests/errors/stats_sort_direction\.q:3:5: runtime error: sort: direction must be "ascend" or "descend", got "up"
% a misspelt direction
s = sort([3, 1], "up")
