% NEEDS: libopenblas.so.0|liblapack.so.3
% det, pinv, blas_lu, blas_gesvd, least-squares solve and eig of matrices that are not
% symmetric, real and complex, each checked by the identities that define it (on LAPACK;
% make test runs it on cuSOLVER's resident path too, through tools/cusolver_stub.c).

function d = maxdiff(a, b)
    d = max(abs(a - b))
end

function h = herm(a)
    h = conj(transpose(a))
end

function x = col(v)                    % a vec as an n x 1 column
    x = transpose(v)
end

function [] = assert_penrose(A, X, tol)   % the four Moore-Penrose conditions
    assert(maxdiff(A * X * A, A) < tol * max(abs(A)))
    assert(maxdiff(X * A * X, X) < tol * max(abs(X)))
    assert(maxdiff(herm(A * X), A * X) < tol)
    assert(maxdiff(herm(X * A), X * A) < tol)
end

function [] = assert_eig(A, V, d, tol)    % A V = V diag(d), columns of unit length
    assert(maxdiff(A * V, V * diag(d)) < tol * max(abs(d)))
    for j = 0..size(V, 1)-1
        assert(abs(sum(abs(V[:, j]) .^ 2) - 1) < tol)
    end
end

function M = sample(m, n, a, b)        % a deterministic m x n matrix
    M = zeros(m, n)
    for i = 0..m-1
        for j = 0..n-1
            M[i, j] = sin(a * i + b * j) + cos(0.3 * i * j)
        end
    end
end

tol = 1e-3
n = 9

% det: of L U with L unit lower (det 1) and U upper: the product of U's diagonal; a swap
% of two rows changes the sign; a singular matrix 0
L = eye(n)
U = zeros(n, n)
p = 1.0
for i = 0..n-1
    U[i, i] = 1.0 + 0.25 * i
    p *= U[i, i]
    for j = 0..n-1
        if j < i
            L[i, j] = 0.3 * sin(i + 2.0 * j)
        elseif j > i
            U[i, j] = cos(3.0 * i - j)
        end
    end
end
M = L * U
assert(abs(det(M) / p - 1) < tol)
Ms = copy(M)
Ms[0, :] = M[3, :]
Ms[3, :] = M[0, :]
assert(abs(det(Ms) / p + 1) < tol)
Ms[1, :] = Ms[2, :]
assert(abs(det(Ms)) < tol * p)
Uc = complex(U, 0.5 * transpose(L) - 0.5 * eye(n))
pc = complex(1.0, 0.0)
for i = 0..n-1
    pc = pc * Uc[i, i]
end
assert(abs(det(complex(L, 0 * L) * Uc) / pc - 1) < tol)

% pinv: tall, wide, square of rank 3 (with and without a tolerance), complex
T = sample(12, 5, 0.37, 0.11)
for i = 0..4
    T[i, i] += 2.0
end
assert_penrose(T, pinv(T), tol)
assert(maxdiff(pinv(T) * T, eye(5)) < tol)
W = transpose(T)
assert_penrose(W, pinv(W), tol)
assert(maxdiff(pinv(W), transpose(pinv(T))) < tol)
R3 = T[:, 0..2] * transpose(T[:, 0..2])   % 12 x 12 of rank 3
assert_penrose(R3, pinv(R3), 1e-2)
assert(maxdiff(R3 * pinv(R3) * R3, R3) < 1e-2 * max(abs(R3)))
[Us, Ss, Vs] = svd(R3)
assert(maxdiff(pinv(R3, 0.5 * Ss[2, 2]), pinv(R3)) < 1e-2 * max(abs(pinv(R3))))
P2 = pinv(R3, 2.0 * Ss[2, 2])          % the third value cut: rank 2
assert(maxdiff(P2 * R3 * P2, P2) < 1e-2 * max(abs(P2)))
assert(abs(sum(diag(P2 * R3)) - 2) < 1e-2)   % the trace of a projection: its rank
Tc = complex(T, sample(12, 5, 0.21, 0.7))
assert_penrose(Tc, pinv(Tc), tol)
assert_penrose(herm(Tc), pinv(herm(Tc)), tol)

% blas_lu: the packed L and U and 0-based exchanges: P A = L U
A = sample(n, n, 0.7, 1.3)
[LU, piv] = blas_lu(A)
La = eye(n)
Ua = zeros(n, n)
for i = 0..n-1
    for j = 0..n-1
        if j < i
            La[i, j] = LU[i, j]
        else
            Ua[i, j] = LU[i, j]
        end
    end
end
PA = copy(A)
moved = 0
for i = 0..n-1
    assert(piv[i] >= i && piv[i] < n)
    moved += piv[i] != i
    r = PA[i, :]
    PA[i, :] = PA[piv[i], :]
    PA[piv[i], :] = r
end
assert(moved > 0)                      % this matrix needs row exchanges
assert(maxdiff(La * Ua, PA) < tol * max(abs(A)))

% blas_gesvd: U S V' = A with orthogonal U and V, as svd
[Ug, Sg, Vg] = blas_gesvd(T)
assert(maxdiff(Ug * Sg * transpose(Vg), T) < tol && maxdiff(transpose(Vg) * Vg, eye(5)) < tol)
assert(maxdiff(transpose(Ug) * Ug, eye(12)) < tol)
[Ug2, Sg2, Vg2] = blas_gesvd(W)
assert(maxdiff(Ug2 * Sg2 * transpose(Vg2), W) < tol && maxdiff(Sg2, transpose(Sg)) < tol)

% least squares: T' (T x - b) = 0 for a tall T; the smallest solution of a wide W
b = sin(0.5 * (0..11))
x = solve(T, b)
assert(numel(x) == 5)
assert(max(abs(transpose(T) * (T * col(x) - col(b)))) < tol)
assert(maxdiff(col(x), pinv(T) * col(b)) < tol)
B = transpose(sample(2, 12, 0.9, 0.4))
X = mldivide(T, B)
assert(max(abs(transpose(T) * (T * X - B))) < tol)
c = cos(0..4)
y = solve(W, c)
assert(numel(y) == 12 && maxdiff(W * col(y), col(c)) < tol)
assert(maxdiff(col(y), pinv(W) * col(c)) < tol)   % in the row space of W: the smallest
Y = solve(W, transpose(sample(3, 5, 0.2, 0.6)))
assert(maxdiff(W * Y, transpose(sample(3, 5, 0.2, 0.6))) < tol)
bc = complex(b, cos(0..11))
xc = solve(Tc, bc)
assert(max(abs(herm(Tc) * (Tc * col(xc) - col(bc)))) < tol)
cc = complex(c, sin(0..4))
yc = solve(herm(Tc), cc)
assert(maxdiff(herm(Tc) * col(yc), col(cc)) < tol)
assert(maxdiff(col(yc), pinv(herm(Tc)) * col(cc)) < tol)

% eig of a matrix that is not symmetric: real (complex pairs among its eigenvalues) and
% complex; the sum and product of the eigenvalues are the trace and the determinant
[V, d] = eig(A)
assert_eig(A, V, d, tol)
assert(abs(sum(d) - sum(diag(A))) < tol * n && abs(prod(d) / det(A) - 1) < 1e-2)
pairs = 0
for j = 0..n-1
    pairs += imag(d[j]) != 0
end
assert(pairs >= 2)
Ac = complex(A, sample(n, n, 0.4, 0.9))
[Vc, dc] = eig(Ac)
assert_eig(Ac, Vc, dc, tol)
assert(abs(sum(dc) - sum(diag(Ac))) < tol * n)
print "ok"
