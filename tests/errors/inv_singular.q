% EXPECT: 1 ^tests/errors/inv_singular\.q:4:[0-9]+: runtime error: inv: the matrix is singular$
% NEEDS: libopenblas.so.0|liblapack.so.3
% a singular matrix has no inverse
x = inv([[1.0, 2], [2, 4]])
