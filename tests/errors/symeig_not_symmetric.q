% EXPECT: 1 ^tests/errors/symeig_not_symmetric\.q:4:[0-9]+: runtime error: symeig: the matrix is not symmetric
% NEEDS: libopenblas.so.0|liblapack.so.3
% symeig reads a symmetric matrix; another one is an error, not garbage
[V, d] = symeig([[1.0, 2], [3, 4]])
