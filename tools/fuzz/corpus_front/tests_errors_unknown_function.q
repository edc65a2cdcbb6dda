% EXPECT: 1 ^tests/errors/unknown_function\.q:3:5: error: .*unknown.*no_such_function
% a call of a function that does not exist
y = no_such_function(1, 2)
