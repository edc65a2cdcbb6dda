% NEEDS: libopenblas.so.0|liblapack.so.3
% The matrix product of large matrices (GEMM), diag / eye / kron / trace / norm, and seed
% 001's blas_* functions, against plain loops and hand-computed values.

function d = maxdiff(a, b)
    d = max(abs(a - b))
end

% GEMM (every dimension >= 64) against a plain triple loop
function C = loop_product(A, B)
    m = size(A, 0)
    k = size(A, 1)
    p = size(B, 1)
    C = zeros(m, p)
    for i = 0..m-1
        for j = 0..p-1
            s = 0.0
            for t = 0..k-1
                s += A[i, t] * B[t, j]
            end
            C[i, j] = s
        end
    end
end
A = rand(64, 70)
B = rand(70, 66)
C = A * B
assert(size(C, 0) == 64 && size(C, 1) == 66)
assert(maxdiff(C, loop_product(A, B)) < 1e-3)
% complex GEMM: (A + iA)(B - iB) = 2 A B
Z = complex(A, A) * complex(B, -B)
assert(maxdiff(real(Z), 2 * C) < 1e-3 && max(abs(imag(Z))) < 1e-3)
% blas_gemm with transposes and C: alpha A' B' + beta C
At = transpose(A)
Bt = transpose(B)
G = blas_gemm(2.0, At, Bt, 0.5, C, true, true)
assert(maxdiff(G, 2.5 * C) < 1e-3)
assert(maxdiff(blas_gemm(1.0, [[1.0, 2], [3, 4]], [[5.0, 6], [7, 8]], 0, 0), [[19, 22], [43, 50]]) < 1e-5)

% diag, eye, kron, trace
D = diag([1, 2, 3])
assert(D[1, 1] == 2 && D[0, 1] == 0 && size(D, 0) == 3)
assert(maxdiff(diag(D), [1, 2, 3]) == 0)
assert(maxdiff(diag([[1, 2, 3], [4, 5, 6]], 1), [2, 6]) == 0)
assert(maxdiff(diag([7, 8], -1), [[0, 0, 0], [7, 0, 0], [0, 8, 0]]) == 0)
E = eye(2, 3)
assert(E[1, 1] == 1 && E[1, 2] == 0 && size(E, 1) == 3)
K = kron([[1, 2], [3, 4]], [[0, 1], [1, 0]])
assert(maxdiff(K, [[0, 1, 0, 2], [1, 0, 2, 0], [0, 3, 0, 4], [3, 0, 4, 0]]) == 0)
assert(trace([[1, 2], [3, 4]]) == 5)

% norms: vectors and matrices
assert(abs(norm([3, 4]) - 5) < 1e-6)
assert(norm([3, -4], 1) == 7 && norm([3, -4], Inf) == 4)
M = [[1.0, -2], [3, 4]]
assert(norm(M, 1) == 6 && norm(M, Inf) == 7)
assert(abs(norm(M, "fro") - sqrt(30)) < 1e-5)
% the 2-norm of a diagonal matrix is its largest |entry|
assert(abs(norm(diag([1.0, -5, 2]))- 5) < 1e-5)

% blas level 1
v = [1.0, -7, 3, 7]
assert(blas_amax(v) == 1 && blas_amin(v) == 0)
assert(blas_asum(v) == 18 && abs(blas_nrm2(v) - sqrt(108)) < 1e-4)
assert(blas_dot(v, [1, 1, 1, 1]) == 4)
assert(maxdiff(blas_axpy(2, v, [1, 1, 1, 1]), 2 * v + 1) == 0)
assert(maxdiff(blas_scal(3, v), 3 * v) == 0)
assert(maxdiff(blas_transpose(M), transpose(M)) == 0)
H = blas_hermtranspose(complex(M, M))
assert(H[0, 1] == 3 - 3i)
assert(maxdiff(blas_geam(1, M, 2, M, false, true), M + 2 * transpose(M)) == 0)
assert(maxdiff(blas_gemv(1, M, [1.0, 1], 0, 0), [-1, 7]) == 0)
assert(maxdiff(blas_gemv(2, M, [1.0, 1], 1, [1.0, 1], true), [9, 5]) == 0)

% factorizations through blas_*
S = [[4.0, 2], [2, 3]]
R = blas_chol(S)
assert(maxdiff(transpose(R) * R, S) < 1e-5)
assert(maxdiff(S * transpose(blas_cholsolve(R, [1.0, 2])), transpose([1.0, 2])) < 1e-5)
[LU, piv] = blas_lu(M)
x = blas_lusolve(LU, piv, [1.0, 2])
assert(maxdiff(M * transpose(x), transpose([1.0, 2])) < 1e-5)
[QR, tau] = blas_qr(M)
Q = blas_q(QR, tau)
assert(maxdiff(transpose(Q) * Q, eye(2)) < 1e-5)
[U, Sg, V] = blas_gesvd(M)
assert(maxdiff(U * Sg * transpose(V), M) < 1e-5)
assert(maxdiff(blas_trsv([[2.0, 1], [0, 4]], [4.0, 8]), [1, 2]) < 1e-6)
assert(maxdiff(blas_trsv([[2.0, 0], [1, 4]], [4.0, 10], "L"), [2, 2]) < 1e-6)

% batched: a stack of matrices is an n x n x b cube
St = cube(2, 2, 3)
for k = 0..2
    St[:, :, k] = M + k * eye(2)
end
Inv = blas_matinvbatches(St)
[LUb, pivb] = blas_lubatched(St)
Inv2 = blas_lumatinvbatched(LUb, pivb)
Rhs = cube(2, 1, 3)
Rhs[:, :, :] = 1
Xb = blas_lusolvebatched(LUb, pivb, Rhs)
for k = 0..2
    Mk = M + k * eye(2)
    assert(maxdiff(Mk * Inv[:, :, k], eye(2)) < 1e-5)
    assert(maxdiff(Inv2[:, :, k], Inv[:, :, k]) < 1e-5)
    assert(maxdiff(Mk * Xb[:, :, k], [[1], [1]]) < 1e-5)
end
assert(numel(blas_version()) > 0)
print "ok"
