% EXPECT: 1 ^tests/errors/stats_dotprod_numel\.q:3:5: runtime error: dotprod: 3 and 2 elements
% dotprod of vectors of different lengths
d = dotprod([1, 2, 3], [1, 2])
