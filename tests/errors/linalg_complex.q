% EXPECT: 1 ^tests/errors/linalg_complex\.q:4:[0-9]+: runtime error: blas_lu: complex matrices are not supported
% NEEDS: libopenblas.so.0|liblapack.so.3
% blas_lu's packed factors are real (lu takes complex matrices)
[LU, piv] = blas_lu(complex(eye(2), eye(2)))
