% EXPECT: 1 ^tests/errors/chol_not_pd\.q:4:[0-9]+: runtime error: chol: the matrix is not positive definite$
% NEEDS: libopenblas.so.0|liblapack.so.3
% chol needs a symmetric positive definite matrix
R = chol([[1.0, 2], [2, 1]])
