% NEEDS: libopenblas.so.0|liblapack.so.3
% Linear algebra (LAPACK): each factorization checked by the identity that defines it.

function d = maxdiff(a, b)
    d = max(abs(a - b))
end

n = 5
A = rand(n, n) + n * eye(n)          % well conditioned
I = eye(n)
assert(maxdiff(A * inv(A), I) < 1e-4)
assert(maxdiff(inv(A) * A, I) < 1e-4)

% det of a triangular matrix is the product of its diagonal; det(A B) = det(A) det(B)
T = A
for i = 0..n-1
    for j = 0..i-1
        T[i, j] = 0
    end
end
p = 1.0
for i = 0..n-1
    p *= T[i, i]
end
assert(abs(det(T) - p) < 1e-4 * abs(p))
B = rand(n, n) + eye(n)
assert(abs(det(A * B) - det(A) * det(B)) < 1e-3 * abs(det(A) * det(B)))
% a 3 x 3 by the rule of Sarrus; a swap of rows changes the sign
S = [[2.0, -1, 3], [4, 0, 1], [-2, 5, 6]]
sarrus = 2*0*6 + (-1)*1*(-2) + 3*4*5 - 3*0*(-2) - (-1)*4*6 - 2*1*5
assert(abs(det(S) - sarrus) < 1e-3)
assert(abs(det([[4.0, 0, 1], [2, -1, 3], [-2, 5, 6]]) + sarrus) < 1e-3)
assert(det([[1.0, 2], [2, 4]]) == 0)

% chol: R' R = A for a symmetric positive definite A, R upper triangular
P = A * transpose(A)
R = chol(P)
assert(maxdiff(transpose(R) * R, P) < 1e-3 * max(abs(P)))
assert(R[1, 0] == 0 && R[n-1, 0] == 0)

% qr of a 6 x 4 matrix: Q orthogonal (6 x 6), R upper triangular, Q R = A
Z = rand(6, 4)
[Q, Rq] = qr(Z)
assert(size(Q, 0) == 6 && size(Q, 1) == 6 && size(Rq, 0) == 6 && size(Rq, 1) == 4)
assert(maxdiff(transpose(Q) * Q, eye(6)) < 1e-5)
assert(maxdiff(Q * Rq, Z) < 1e-5)
assert(Rq[3, 2] == 0 && Rq[5, 0] == 0)

% lu: P A = L U
[L, U, Pm] = lu(A)
assert(maxdiff(Pm * A, L * U) < 1e-4)
assert(L[0, 0] == 1 && U[2, 1] == 0)

% svd of a 4 x 6 matrix: U S V' = A, U and V orthogonal, descending singular values
W = rand(4, 6)
[Us, Ss, Vs] = svd(W)
assert(maxdiff(Us * Ss * transpose(Vs), W) < 1e-5)
assert(maxdiff(transpose(Us) * Us, eye(4)) < 1e-5)
assert(maxdiff(transpose(Vs) * Vs, eye(6)) < 1e-5)
assert(Ss[0, 0] >= Ss[1, 1] && Ss[1, 1] >= Ss[2, 2] && Ss[2, 2] >= 0)
assert(abs(norm(W) - Ss[0, 0]) < 1e-5)

% symeig: P v = lambda v for each column v of V, eigenvalues ascending
[V, d] = symeig(P)
for k = 0..n-1
    v = V[:, k]
    assert(maxdiff(P * v, d[k] * v) < 1e-3 * max(abs(d)))
end
assert(d[0] <= d[1] && abs(sum(d) - trace(P)) < 1e-3 * abs(trace(P)))

% eig of a non-symmetric matrix with eigenvalues 2 and 3, and a rotation (complex pair)
N = [[4.0, 1], [-2, 1]]
[Ve, de] = eig(N)
assert(abs(de[0] * de[1] - 6) < 1e-4 && abs(de[0] + de[1] - 5) < 1e-4)
for k = 0..1
    assert(maxdiff(N * Ve[:, k], de[k] * Ve[:, k]) < 1e-4)
end
[Vr, dr] = eig([[0.0, -1], [1, 0]])
assert(abs(abs(imag(dr[0])) - 1) < 1e-5 && abs(real(dr[0])) < 1e-5)
assert(maxdiff([[0.0, -1], [1, 0]] * Vr[:, 0], dr[0] * Vr[:, 0]) < 1e-5)

% solve / mldivide: A x = b; a vec right-hand side gives a vec
b = rand(n)
x = solve(A, b)
assert(maxdiff(A * transpose(x), transpose(b)) < 1e-4)
Bm = rand(n, 3)
X = mldivide(A, Bm)
assert(maxdiff(A * X, Bm) < 1e-4)
% least squares for a tall matrix: the residual is orthogonal to the columns
Z2 = rand(8, 3)
y = rand(8)
c = solve(Z2, y)
res = Z2 * transpose(c) - transpose(y)
assert(max(abs(transpose(Z2) * res)) < 1e-4)

% pinv: A pinv(A) A = A; for a square invertible matrix it is the inverse
Wp = pinv(W)
assert(size(Wp, 0) == 6 && size(Wp, 1) == 4)
assert(maxdiff(W * Wp * W, W) < 1e-4)
assert(maxdiff(pinv(A), inv(A)) < 1e-4)
print "ok"
