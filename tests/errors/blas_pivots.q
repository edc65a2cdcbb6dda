% EXPECT: 1 ^tests/errors/blas_pivots\.q:5:[0-9]+: runtime error: blas_lusolve: expected the pivots of blas_lu
% NEEDS: libopenblas.so.0|liblapack.so.3
% blas_lusolve needs blas_lu's pivots
[LU, piv] = blas_lu(eye(3))
x = blas_lusolve(LU, [0, 1], [1.0, 2, 3])
