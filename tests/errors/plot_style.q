% EXPECT: 1 plot: unknown style 'z'
plot([1, 2], [3, 4], "z")
