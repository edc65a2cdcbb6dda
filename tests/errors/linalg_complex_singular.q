% EXPECT: 1 ^tests/errors/linalg_complex_singular\.q:4:[0-9]+: runtime error: inv: the matrix is singular
% NEEDS: libopenblas.so.0|liblapack.so.3
% a complex singular matrix has no inverse
X = inv(complex([[1.0, 2], [2, 4]], [[1.0, 2], [2, 4]]))
