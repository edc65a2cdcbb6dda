% EXPECT: 1 ^tests/errors/chol_complex_not_pd\.q:5:[0-9]+: runtime error: chol: the matrix is not positive definite$
% NEEDS: libopenblas.so.0|liblapack.so.3
% a complex Hermitian matrix with a negative eigenvalue (1 - |2i| = -1)
H = [[complex(1, 0), complex(0, 2)], [complex(0, -2), complex(1, 0)]]
R = chol(H)
