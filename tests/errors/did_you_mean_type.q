% EXPECT: 1 ^tests/errors/did_you_mean_type\.q:3:9: error: unknown type 'intt'; did you mean 'int'\?$
% "did you mean": a type argument, among the type names only
x = vec[intt](3)
