% EXPECT: 1 plot: x and y have 2 and 3 elements
plot([1, 2], [1, 2, 3])
