% EXPECT: 1 arrayexpr_fuse_shape.q:8:.*shape mismatch in '\+': \[40,30\] and \[30,40\]
% t = a .* 2 fuses into the next statement (one kernel); the shape error there keeps the
% runtime's message and the place of the statement that has it.
a = rand(40, 30)
b = rand(30, 40)
t = a .* 2
u = t .* 3
c = u + b
