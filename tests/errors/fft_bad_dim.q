% EXPECT: 1 ^tests/errors/fft_bad_dim\.q:4:[0-9]+: runtime error: fftn: dimension 2 is outside the array.s 2 dimensions \(0-based\)$
% fftn's dimensions are checked against the rank
x = rand(4, 4)
y = fftn(x, [0, 2])
