% EXPECT: 1 ^tests/errors/linalg_complex_hermitian\.q:4:[0-9]+: runtime error: symeig: the complex matrix is not Hermitian
% NEEDS: libopenblas.so.0|liblapack.so.3
% symeig of a complex matrix needs a Hermitian one
[V, d] = symeig(complex([[1.0, 2], [2, 1]], [[0.0, 1], [1, 0]]))
