% EXPECT: 1 ^tests/errors/fft_arg_count\.q:3:[0-9]+: runtime error: fft1 takes one array$
% fft1 has no dimension argument (fftn has)
y = fft1(rand(8), 0)
