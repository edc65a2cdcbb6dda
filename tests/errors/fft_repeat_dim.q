% EXPECT: 1 ^tests/errors/fft_repeat_dim\.q:3:[0-9]+: runtime error: fftn: dimension 1 is given twice$
% a dimension may be transformed once
y = fftn(rand(4, 4), [1, 1])
