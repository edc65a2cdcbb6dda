% EXPECT: 1 ^tests/errors/did_you_mean_none\.q:3:5: error: unknown name 'qqqzzz'$
% no known name is near: no suggestion
y = qqqzzz + 1
