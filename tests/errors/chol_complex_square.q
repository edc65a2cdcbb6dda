% EXPECT: 1 ^tests/errors/chol_complex_square\.q:4:[0-9]+: runtime error: chol: expected a square matrix, got 2 x 3
% NEEDS: libopenblas.so.0|liblapack.so.3
% chol of a complex matrix needs a square one
R = chol(complex(ones(2, 3), ones(2, 3)))
