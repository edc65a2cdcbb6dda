% EXPECT: 1 plot: y must be a vector, not mat
plot(ones(3, 3))
