% EXPECT: 1 ^tests/errors/stats_max_outputs_pair\.q:3:(1|10): runtime error: max: the element-wise form max\(a, b\) has one output
% [m, i] = max(a, b): the element-wise form has no index
[m, i] = max([1, 2], [2, 1])
