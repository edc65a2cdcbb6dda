% EXPECT: 1 ^tests/errors/did_you_mean_builtin\.q:3:5: error: unknown name 'sqr'; did you mean 'sqrt'\?$
% "did you mean": a built-in function; of two as near (sqrt, shr), the one that begins alike
y = sqr(4)
