% EXPECT: 1 arrayexpr_along_dim.q:5:.*sum: negative dimension -1
% A reduction along a dimension of an expression keeps the runtime's checks of the dimension.
x = rand(40, 30)
d = -1
s = sum(x .* 2, d)
