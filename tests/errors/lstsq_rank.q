% EXPECT: 1 ^tests/errors/lstsq_rank\.q:8:[0-9]+: runtime error: solve: the matrix does not have full rank$
% NEEDS: libopenblas.so.0|liblapack.so.3
% least squares needs a matrix of full rank; made by a kernel, on --target cuda the matrix
% is cuSOLVER's (a zero column: R has an exact zero on its diagonal, as LAPACK's gels sees)
A = mat(6, 3)
parallel_do(size(A), A, __kernel__ (a : mat, pos : ivec2) -> a[pos] = pos[1] == 1 ? 0.0 : sin(pos[0] + 2.0 * pos[1]) + 1.5)
b = ones(6)
x = solve(A, b)
