% EXPECT: 1 ^tests/errors/linalg_complex_square\.q:4:[0-9]+: runtime error: det: expected a square matrix, got 2 x 3
% NEEDS: libopenblas.so.0|liblapack.so.3
% det of a complex matrix needs a square one
d = det(complex(ones(2, 3), ones(2, 3)))
