% EXPECT: 1 arrayexpr_shape.q:5:.*shape mismatch in '\+': \[40,30\] and \[30,40\]
% Shape errors of host array expressions keep the runtime's message and place.
a = rand(40, 30)
b = rand(30, 40)
c = a .* 2 + b
