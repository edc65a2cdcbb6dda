% EXPECT: 1 ^tests/errors/int_div_zero\.q:5:1: runtime error: integer division by zero
% `j /= d` on ints is integer division: by zero it is an error (`j / 0` is a real Inf).
j = 7
d = 0
j /= d
