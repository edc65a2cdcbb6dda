% EXPECT: 1 ^tests/errors/norm_bad_p\.q:3:[0-9]+: runtime error: norm: unknown norm "max"
% norm's p: a number >= 1, Inf or "fro"
n = norm([1, 2], "max")
