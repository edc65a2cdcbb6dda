% EXPECT: 1 ^tests/errors/det_rank\.q:5:[0-9]+: runtime error: det: expected a vector or a matrix, got cube$
% NEEDS: libopenblas.so.0|liblapack.so.3
% the linear-algebra functions take vectors and matrices only
c = cube(2, 2, 2)
d = det(c)
