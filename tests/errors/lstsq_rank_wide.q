% EXPECT: 1 ^tests/errors/lstsq_rank_wide\.q:7:[0-9]+: runtime error: mldivide: the matrix does not have full rank$
% NEEDS: libopenblas.so.0|liblapack.so.3
% the smallest solution of a wide system needs full row rank (a zero row)
A = mat(3, 6)
parallel_do(size(A), A, __kernel__ (a : mat, pos : ivec2) -> a[pos] = pos[0] == 2 ? 0.0 : sin(pos[0] + 2.0 * pos[1]) + 1.5)
b = ones(3, 2)
x = mldivide(A, b)
