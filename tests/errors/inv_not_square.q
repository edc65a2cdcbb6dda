% EXPECT: 1 ^tests/errors/inv_not_square\.q:4:[0-9]+: runtime error: inv: expected a square matrix, got 2 x 3$
% NEEDS: libopenblas.so.0|liblapack.so.3
% inv of a non-square matrix is an error naming both sizes
x = inv(rand(2, 3))
