% EXPECT: 1 ^tests/errors/host_index_read\.q:4:(5|6): runtime error: .*(range|bound|outside|index)
% reading past the end of an array in host code is an error
x = zeros(4)
v = x[4]
