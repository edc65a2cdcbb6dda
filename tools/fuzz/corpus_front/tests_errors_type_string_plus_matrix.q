% EXPECT: 1 ^tests/errors/type_string_plus_matrix\.q:3:(5|11): (runtime )?error: .*(string|type|operand|mismatch)
% a string and a matrix cannot be added
y = "abc" + [[1, 2], [3, 4]]
