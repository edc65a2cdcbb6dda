% EXPECT: 1 ^tests/errors/unknown_name\.q:3:5: error: .*unknown.*foo
% a name that is never defined
y = foo + 1
