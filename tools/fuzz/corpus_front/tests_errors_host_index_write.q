% EXPECT: 1 ^tests/errors/host_index_write\.q:4:(1|2): runtime error: .*(range|bound|outside|index)
% writing outside a matrix in host code is an error
m = zeros(2, 3)
m[2, 0] = 1
