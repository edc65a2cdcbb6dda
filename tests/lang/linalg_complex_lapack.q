% NEEDS: libopenblas.so.0|liblapack.so.3
% Complex matrices on LAPACK's z routines: inv, det, solve, svd and eig checked by the
% identities that define them and by closed forms (the small matrix products here are the
% plain loop of rt_ops.c, independent of LAPACK).

function d = maxdiff(a, b)
    d = max(abs(a - b))
end

function h = herm(a)                     % the conjugate transpose
    h = conj(transpose(a))
end

n = 6
seed(5)
A = complex(rand(n, n), rand(n, n)) + complex(n * eye(n), 0 * eye(n))
I = eye(n)

% inv: A inv(A) = I
Ai = inv(A)
assert(maxdiff(A * Ai, I) < 1e-4 && maxdiff(Ai * A, I) < 1e-4)
% a 2 x 2 by its closed form [[d, -b], [-c, a]] / (ad - bc)
a = complex(1, 2)
b = complex(0, -1)
c = complex(3, 0)
d = complex(2, 1)
M2 = [[a, b], [c, d]]
dd = a * d - b * c
assert(maxdiff(inv(M2), [[d, -b], [-c, a]] / dd) < 1e-5)

% det: the closed form of 2 x 2; det(A B) = det(A) det(B); of a triangular matrix the
% product of its diagonal
assert(abs(det(M2) - dd) < 1e-5)
B = complex(rand(n, n), -rand(n, n)) + complex(0 * eye(n), n * eye(n))
assert(abs(det(A * B) - det(A) * det(B)) < 1e-3 * abs(det(A) * det(B)))
T = A
for i = 0..n-1
    for j = 0..i-1
        T[i, j] = 0
    end
end
p = complex(1, 0)
for i = 0..n-1
    p = p * T[i, i]
end
assert(abs(det(T) - p) < 1e-4 * abs(p))

% solve: A x = b (a vec), A X = B (a matrix), a real A with a complex b, least squares of a
% tall matrix: the residual is orthogonal to A's columns (A' r = 0)
bv = complex(rand(n), rand(n))
x = solve(A, bv)
assert(numel(x) == n && maxdiff(A * transpose(x), transpose(bv)) < 1e-4)
X = mldivide(A, B)
assert(maxdiff(A * X, B) < 1e-4)
R = rand(n, n) + n * eye(n)
y = solve(R, bv)
assert(maxdiff(R * transpose(y), transpose(bv)) < 1e-4)
Z = complex(rand(9, 4), rand(9, 4))
zb = complex(rand(9, 1), rand(9, 1))
zx = solve(Z, zb)
assert(maxdiff(herm(Z) * (Z * zx - zb), zeros(4, 1)) < 1e-4)

% svd: U S V' = A, U and V unitary, S real with descending values; a wide matrix too
for shape = 0..1
    W = shape == 0 ? complex(rand(5, 3), rand(5, 3)) : complex(rand(3, 5), rand(3, 5))
    [U, S, V] = svd(W)
    m = size(W, 0)
    k = size(W, 1)
    assert(maxdiff(U * S * herm(V), W) < 1e-4)
    assert(maxdiff(herm(U) * U, eye(m)) < 1e-4 && maxdiff(herm(V) * V, eye(k)) < 1e-4)
    assert(sum(abs(imag(S))) == 0)
    for i = 1..min(m, k)-1
        assert(S[i - 1, i - 1] >= S[i, i])
    end
end
% the singular values of a unitary-scaled matrix: svd(2 i I) has every value 2
[U2, S2, V2] = svd(complex(0 * eye(3), 2 * eye(3)))
assert(maxdiff(S2, 2 * eye(3)) < 1e-6)

% eig: A v = lambda v for each column; a diagonal matrix's eigenvalues are its diagonal
[V, lam] = eig(A)
assert(maxdiff(A * V, V * diag(lam)) < 1e-4)
for j = 0..n-1
    assert(abs(sum(abs(V[:, j]) .^ 2) - 1) < 1e-4)   % unit length
end
Dg = diag([complex(1, 1), complex(-2, 0), complex(0, 3)])
[Vd, ld] = eig(Dg)
s = sort(real(ld))
assert(maxdiff(s, [-2, 0, 1]) < 1e-6 && abs(sum(ld) - complex(-1, 4)) < 1e-6)

% symeig (and eig) of a Hermitian matrix (zheevd): H V = V diag(d), d real ascending, V
% unitary, the sum of d the trace
H = A + herm(A)
[Vh, dh] = symeig(H)
assert(maxdiff(H * Vh, Vh * diag(dh)) < 1e-3 && maxdiff(herm(Vh) * Vh, I) < 1e-4)
tr = complex(0, 0)
for i = 0..n-1
    tr = tr + H[i, i]
    if i > 0
        assert(dh[i - 1] <= dh[i])
    endif
end
assert(abs(sum(dh) - real(tr)) < 1e-3 && abs(imag(tr)) < 1e-4)
[Ve, de] = eig(H)
assert(maxdiff(de, dh) < 1e-4)
print "ok"
