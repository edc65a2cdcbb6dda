% EXPECT: 1 arrayexpr_fuse_first.q:6:.*shape mismatch in '-': \[40,30\] and \[30,40\]
% A shape error in a statement fused into the next one is reported at its own line, before
% the next statement runs.
a = rand(40, 30)
b = rand(30, 40)
t = a - b
c = t * 2
print c
