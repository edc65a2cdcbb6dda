% EXPECT: 1 arrayexpr_along_empty.q:4:.*max: empty array
% max along an empty dimension has no value: the runtime's error, not a kernel's garbage.
x = zeros(0, 1500)
m = max(x * 2, [], 0)
