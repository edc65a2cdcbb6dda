% EXPECT: 1 ^tests/errors/blas_lu_singular\.q:7:[0-9]+: runtime error: blas_lu: the matrix is singular$
% NEEDS: libopenblas.so.0|liblapack.so.3
% blas_lu of a singular matrix (a zero column: an exact zero pivot); made by a kernel, on
% --target cuda the matrix is cuSOLVER's
A = mat(5, 5)
parallel_do(size(A), A, __kernel__ (a : mat, pos : ivec2) -> a[pos] = pos[1] == 3 ? 0.0 : sin(pos[0] * 1.3 + pos[1]))
[LU, piv] = blas_lu(A)
