% tests/gpu.sh: the factorizations on cuSOLVER (on --target cuda a matrix that a kernel
% made, or one of 65536 elements and more; the factors stay on the GPU) checked by the
% identities that define them and against LAPACK's answers for the same matrix made on the
% host (a host write drops the device copy, and a smaller matrix stays on the host); real
% matrices and complex ones (cuSOLVER's C/Z routines).

function [] = __kernel__ fill(x : mat, seed : scalar, pos : ivec2)
    x[pos] = sin(pos[0] * 0.37 + pos[1] * seed) + (pos[0] == pos[1] ? 4.0 : 0.0)
end

function [] = __kernel__ cfill(x : cmat, seed : scalar, pos : ivec2)
    x[pos] = complex(sin(pos[0] * 0.37 + pos[1] * seed), cos(pos[0] * seed - pos[1] * 0.19)) + (pos[0] == pos[1] ? 4.0 : 0.0)
end

function h = herm(a)                   % the conjugate transpose
    h = conj(transpose(a))
end

function d = maxdiff(a, b)
    d = max(abs(a - b))
end

function y = on_host(x)
    y = copy(x)
    y[0, 0] = x[0, 0]                  % a host write: the copy lives on the host only
end

n = 120
A = mat(n, n)
parallel_do(size(A), A, 0.23, fill)    % on the GPU: cuSOLVER
Ah = on_host(A)                        % the same values on the host: LAPACK
I = eye(n)
tol = 2e-3

% inv, det, solve
Ai = inv(A)
assert(maxdiff(A * Ai, I) < tol && maxdiff(Ai, inv(Ah)) < tol)
A12 = mat(12, 12)                      % small, still on the GPU: det stays in range
parallel_do(size(A12), A12, 0.29, fill)
assert(abs(det(A12) / det(on_host(A12)) - 1) < 1e-3)
b = rand(n)
x = solve(A, b)
assert(maxdiff(A * transpose(x), transpose(b)) < tol && maxdiff(x, solve(Ah, b)) < tol)
B = rand(n, 3)
assert(maxdiff(A * mldivide(A, B), B) < tol)

% chol of a symmetric positive definite matrix
P = A * transpose(A) + n * I
P = (P + transpose(P)) / 2
Pd = mat(n, n)
parallel_do(size(P), P, Pd, __kernel__ (p : mat, q : mat, pos : ivec2) -> q[pos] = p[pos])
R = chol(Pd)
assert(maxdiff(transpose(R) * R, P) < tol * max(abs(P)))
assert(maxdiff(R, chol(on_host(P))) < tol * max(abs(R)))
for i = 1..n-1
    assert(R[i, 0] == 0)
end

% lu: P A = L U
[L, U, Pm] = lu(A)
assert(maxdiff(Pm * A, L * U) < tol)
assert(L[0, 0] == 1 && U[1, 0] == 0)

% qr of a tall and of a wide matrix: Q R = A, Q orthogonal
T = mat(n, 40)
parallel_do(size(T), T, 0.11, fill)
[Q, Rq] = qr(T)
assert(maxdiff(Q * Rq, T) < tol && maxdiff(transpose(Q) * Q, I) < tol)
Wd = mat(30, 70)
parallel_do(size(Wd), Wd, 0.41, fill)
[Q2, R2] = qr(Wd)
assert(maxdiff(Q2 * R2, Wd) < tol && maxdiff(transpose(Q2) * Q2, eye(30)) < tol)

% svd of a tall and of a wide matrix: U S V' = A, the values as LAPACK's
[Us, Ss, Vs] = svd(T)
assert(maxdiff(Us * Ss * transpose(Vs), T) < tol && maxdiff(transpose(Vs) * Vs, eye(40)) < tol)
[Uh, Sh, Vh] = svd(on_host(T))
assert(maxdiff(Ss, Sh) < tol * Sh[0, 0])
[Uw, Sw, Vw] = svd(Wd)
assert(maxdiff(Uw * Sw * transpose(Vw), Wd) < tol && maxdiff(transpose(Uw) * Uw, eye(30)) < tol)
for i = 1..29
    assert(Sw[i - 1, i - 1] >= Sw[i, i])
end

% symeig: P v = lambda v, the eigenvalues ascending and as LAPACK's
[V, d] = symeig(Pd)
assert(maxdiff(Pd * V, V * diag(d)) < tol * max(abs(d)))
[Vh2, dh] = symeig(on_host(P))
assert(maxdiff(d, dh) < tol * max(abs(d)))

% a large host matrix goes to cuSOLVER by its size
G = rand(300, 300) + 300 * eye(300)
assert(maxdiff(G * inv(G), eye(300)) < tol)

% a singular matrix on the GPU: det 0
S = mat(n, n)
parallel_do(size(S), S, 0.0, __kernel__ (s : mat, z : scalar, pos : ivec2) -> s[pos] = z)
assert(det(S) == 0)
% wide lu on the GPU
[Lw, Uw, Pw] = lu(Wd)
assert(maxdiff(Pw * Wd, Lw * Uw) < tol && size(Lw, 1) == 30 && size(Uw, 0) == 30)

% ---- complex matrices: cuSOLVER's C/Z routines ----
C = cmat(n, n)
parallel_do(size(C), C, 0.23, cfill)
Ch = on_host(C)
Ci = inv(C)
assert(maxdiff(C * Ci, I) < tol && maxdiff(Ci, inv(Ch)) < tol)
cb = complex(rand(n), rand(n))
cx = solve(C, cb)
assert(maxdiff(C * transpose(cx), transpose(cb)) < tol && maxdiff(cx, solve(Ch, cb)) < tol)
CB = complex(rand(n, 3), rand(n, 3))
assert(maxdiff(C * mldivide(C, CB), CB) < tol)

% chol of a Hermitian positive definite matrix: R' R = H
H = herm(Ch) * Ch + complex(n * I, 0 * I)
H = (H + herm(H)) / 2
Hd = cmat(n, n)
parallel_do(size(H), H, Hd, __kernel__ (p : cmat, q : cmat, pos : ivec2) -> q[pos] = p[pos])
Rc = chol(Hd)
assert(maxdiff(herm(Rc) * Rc, H) < tol * max(abs(H)))
assert(maxdiff(Rc, chol(on_host(H))) < tol * max(abs(Rc)))
assert(abs(Rc[1, 0]) == 0 && abs(imag(Rc[0, 0])) < tol)

% lu: P A = L U
[Lc, Uc, Pc] = lu(C)
assert(maxdiff(Pc * C, Lc * Uc) < tol && abs(Lc[0, 0] - 1) == 0 && abs(Uc[1, 0]) == 0)

% qr of a tall and of a wide matrix: Q R = A, Q unitary
Tc = cmat(n, 40)
parallel_do(size(Tc), Tc, 0.11, cfill)
[Qc, Rqc] = qr(Tc)
assert(maxdiff(Qc * Rqc, Tc) < tol && maxdiff(herm(Qc) * Qc, I) < tol)
Wc = cmat(30, 70)
parallel_do(size(Wc), Wc, 0.41, cfill)
[Qw, Rw] = qr(Wc)
assert(maxdiff(Qw * Rw, Wc) < tol && maxdiff(herm(Qw) * Qw, eye(30)) < tol)

% svd of a tall and of a wide matrix: U S V' = A, U and V unitary, the values as LAPACK's
[Ut, St, Vt] = svd(Tc)
assert(maxdiff(Ut * St * herm(Vt), Tc) < tol && maxdiff(herm(Vt) * Vt, eye(40)) < tol)
[Uth, Sth, Vth] = svd(on_host(Tc))
assert(maxdiff(St, Sth) < tol * Sth[0, 0])
[Uwc, Swc, Vwc] = svd(Wc)
assert(maxdiff(Uwc * Swc * herm(Vwc), Wc) < tol && maxdiff(herm(Uwc) * Uwc, eye(30)) < tol)
assert(maxdiff(herm(Vwc) * Vwc, eye(70)) < tol)

% symeig (and eig) of a Hermitian matrix: H V = V diag(d), the values as LAPACK's
[Vc, dc] = symeig(Hd)
assert(maxdiff(Hd * Vc, Vc * diag(dc)) < tol * max(abs(dc)) && maxdiff(herm(Vc) * Vc, I) < tol)
[Vch, dch] = symeig(on_host(H))
assert(maxdiff(dc, dch) < tol * max(abs(dc)))
[Ve, de] = eig(Hd)
assert(maxdiff(de, dch) < tol * max(abs(dc)))
% eig of a matrix that is not Hermitian: LAPACK's zgeev on the host
[Vg, lg] = eig(C)
assert(maxdiff(C * Vg, Vg * diag(lg)) < tol * max(abs(lg)))
print "ok"
