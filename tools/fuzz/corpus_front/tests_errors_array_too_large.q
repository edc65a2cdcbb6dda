% EXPECT: 1 ^tests/errors/array_too_large\.q:4:1: runtime error: array too large
% issue 23, finding 9: "array too large" names its statement too
n = 2^40
x = zeros(n, n)
