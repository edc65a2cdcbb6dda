% EXPECT: 1 ^tests/errors/solve_dims\.q:4:[0-9]+: runtime error: solve: the rows of A and the length of b disagree \(3 and 2\)$
% NEEDS: libopenblas.so.0|liblapack.so.3
% solve's right-hand side must have as many rows as A
x = solve(eye(3), [1.0, 2])
