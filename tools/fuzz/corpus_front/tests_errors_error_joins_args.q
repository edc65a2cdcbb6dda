% EXPECT: 1 ^tests/errors/error_joins_args\.q:5:1: runtime error: bad size 7 of \[1,2\]!$
% error("text ", x) joins its arguments as print does (published code passes several).
x = 7
v = [1, 2]
error("bad size ", x, " of ", v, "!")
