% EXPECT: 1 runtime error: fftshift2: expected a non-empty vec, matrix or cube
% fftshift2 of a number is an error.
import "imboundary.q"
y = fftshift2(7)
