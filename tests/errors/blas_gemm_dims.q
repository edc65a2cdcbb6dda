% EXPECT: 1 ^tests/errors/blas_gemm_dims\.q:4:[0-9]+: runtime error: blas_gemm: inner dimensions disagree \(3 and 2\)$
% NEEDS: libopenblas.so.0|liblapack.so.3
% the inner dimensions of op(A) op(B) must agree
C = blas_gemm(1, rand(2, 3), rand(2, 2), 0, 0)
