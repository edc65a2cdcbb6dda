% EXPECT: 1 arrayexpr_select_shape.q:6:.*shape mismatch in '\?:': \[40,30\] and \[30,40\]
% c ? a : b with an array condition: a branch of another shape is an error naming the
% operator and both shapes (the statement would otherwise be one kernel).
c = rand(40, 30)
b = rand(30, 40)
y = c > 0.5 ? b : 0
