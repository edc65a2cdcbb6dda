% EXPECT: 1 ^tests/errors/fft_not_array\.q:3:[0-9]+: runtime error: fft2: expected a number or an array, got string$
% the FFTs take numbers and arrays
y = fft2("image.png")
