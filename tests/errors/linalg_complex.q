% EXPECT: 1 ^tests/errors/linalg_complex\.q:4:[0-9]+: runtime error: lu: complex matrices are not supported
% NEEDS: libopenblas.so.0|liblapack.so.3
% the factorizations are real (the matrix product takes complex matrices)
[L, U, P] = lu(complex(eye(2), eye(2)))
