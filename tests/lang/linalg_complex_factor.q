% NEEDS: libopenblas.so.0|liblapack.so.3
% Complex lu, qr, chol and pinv (LAPACK's zgetrf, zgeqrf + zungqr, zpotrf, zgesdd) checked by
% the identities that define them; the small products here are the plain loop of rt_ops.c,
% independent of LAPACK.

function d = maxdiff(a, b)
    d = max(abs(a - b))
end

function h = herm(a)                     % the conjugate transpose
    h = conj(transpose(a))
end

seed(11)
n = 6
A = complex(rand(n, n), rand(n, n))
I = eye(n)

% lu: P A = L U, L unit lower, U upper, P a permutation; a tall and a wide matrix too
for shape = 0..2
    M = shape == 0 ? A : shape == 1 ? complex(rand(7, 4), rand(7, 4)) : complex(rand(3, 5), rand(3, 5))
    [L, U, P] = lu(M)
    m = size(M, 0)
    k = min(m, size(M, 1))
    assert(size(L, 0) == m && size(L, 1) == k && size(U, 0) == k && size(P, 0) == m)
    assert(maxdiff(P * M, L * U) < 1e-4)
    for i = 0..m-1
        assert(sum(P[i, :]) == 1 && sum(P[:, i]) == 1)
        for j = 0..k-1
            if j > i
                assert(L[i, j] == 0)
            elseif j == i
                assert(L[i, j] == 1)
            endif
            if i > j && i < k
                assert(U[i, j] == 0)
            endif
        end
    end
end

% qr: Q R = A, Q unitary (Q' Q = I), R upper triangular; tall and wide
for shape = 0..2
    M = shape == 0 ? A : shape == 1 ? complex(rand(7, 4), rand(7, 4)) : complex(rand(3, 5), rand(3, 5))
    [Q, R] = qr(M)
    m = size(M, 0)
    assert(size(Q, 0) == m && size(Q, 1) == m && size(R, 0) == m && size(R, 1) == size(M, 1))
    assert(maxdiff(Q * R, M) < 1e-4 && maxdiff(herm(Q) * Q, eye(m)) < 1e-4)
    for i = 0..m-1
        for j = 0..min(i, size(M, 1))-1
            if j < i
                assert(R[i, j] == 0)
            endif
        end
    end
end

% chol of a Hermitian positive definite H = B' B + n I: R' R = H, R upper with a real
% positive diagonal
B = complex(rand(n, n), rand(n, n))
H = herm(B) * B + complex(n * I, 0 * I)
R = chol(H)
assert(maxdiff(herm(R) * R, H) < 1e-3)
for i = 0..n-1
    assert(abs(imag(R[i, i])) < 1e-5 && real(R[i, i]) > 0)
    for j = 0..i-1
        assert(R[i, j] == 0)
    end
end
% a 1 x 1: sqrt of the number
assert(abs(chol([[complex(4, 0)]]) - 2) < 1e-6)

% pinv: A pinv(A) A = A and pinv(A) A pinv(A) = pinv(A), both products Hermitian; of an
% invertible matrix the inverse; of a rank-deficient one (a repeated column) too
Pi = pinv(A)
assert(maxdiff(Pi, inv(A)) < 1e-3)
W = complex(rand(5, 3), rand(5, 3))
W[:, 2] = W[:, 0]
Wp = pinv(W)
assert(size(Wp, 0) == 3 && size(Wp, 1) == 5)
assert(maxdiff(W * Wp * W, W) < 1e-4 && maxdiff(Wp * W * Wp, Wp) < 1e-4)
assert(maxdiff(W * Wp, herm(W * Wp)) < 1e-4 && maxdiff(Wp * W, herm(Wp * W)) < 1e-4)
% a tolerance above every singular value gives zero
assert(maxdiff(pinv(W, 1e9), zeros(3, 5)) == 0)
print "ok"
