% EXPECT: 1 ^tests/errors/stats_histc_edges\.q:3:5: runtime error: histc: the edges must be non-decreasing numbers \(edge 2\)
% histc edges must not decrease
h = histc([1, 2], [0, 2, 1])
