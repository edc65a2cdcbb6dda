% EXPECT: 1 arrayexpr_select_kind.q:5:.*'\?:' with an array condition takes numbers or arrays, not a string
% An array condition chooses between numbers or arrays only.
c = rand(40, 30)
s = "a"
y = c > 0.5 ? s : 0
