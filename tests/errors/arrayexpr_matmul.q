% EXPECT: 1 arrayexpr_matmul.q:5:.*inner dimensions disagree
% '*' of two arrays is the matrix product, never an element-wise kernel.
a = rand(40, 30)
b = rand(40, 30)
c = a * b + 1
