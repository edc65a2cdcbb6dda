% tests/gpu.sh: det, pinv, blas_lu, blas_gesvd, least-squares solve and eig of a matrix
% that is not symmetric on cuSOLVER (on --target cuda a matrix that a kernel made stays on
% the GPU: device/rt_cusolver.c's cusolver_resident), each checked by the identities that
% define it and against LAPACK's answer for the same matrix made on the host (a host write
% drops the device copy; a matrix this small stays on the host). Real and complex matrices.
% eig goes through the host where cuSOLVER lacks Xgeev (CUDA before 12.6): the same checks.

function [] = __kernel__ fill(x : mat, seed : scalar, pos : ivec2)
    x[pos] = sin(pos[0] * 0.37 + pos[1] * seed) + (pos[0] == pos[1] ? 4.0 : 0.0)
end

function [] = __kernel__ fill_general(x : mat, seed : scalar, pos : ivec2)   % as random
    v = sin(pos[0] * 12.9898 + pos[1] * 78.233 + seed) * 43758.5453
    x[pos] = v - floor(v) - 0.5
end

function [] = __kernel__ cfill(x : cmat, seed : scalar, pos : ivec2)
    x[pos] = complex(sin(pos[0] * 0.37 + pos[1] * seed), cos(pos[0] * seed - pos[1] * 0.19)) + (pos[0] == pos[1] ? 4.0 : 0.0)
end

function [] = __kernel__ copy_real(p : mat, q : mat, pos : ivec2)
    q[pos] = p[pos]
end

function [] = __kernel__ copy_cplx(p : cmat, q : cmat, pos : ivec2)
    q[pos] = p[pos]
end

function y = on_gpu(x)                 % a kernel's copy: the values on the GPU only
    y = mat(size(x, 0), size(x, 1))
    parallel_do(size(x), x, y, copy_real)
end

function y = con_gpu(x)
    y = cmat(size(x, 0), size(x, 1))
    parallel_do(size(x), x, y, copy_cplx)
end

function y = on_host(x)
    y = copy(x)
    y[0, 0] = x[0, 0]                  % a host write: the copy lives on the host only
end

function h = herm(a)                   % the conjugate transpose
    h = conj(transpose(a))
end

function d = maxdiff(a, b)
    d = max(abs(a - b))
end

function [] = assert_penrose(A, X, tol)   % the four Moore-Penrose conditions
    s = max(abs(A))
    assert(maxdiff(A * X * A, A) < tol * s)
    assert(maxdiff(X * A * X, X) < tol * max(abs(X)))
    assert(maxdiff(herm(A * X), A * X) < tol)
    assert(maxdiff(herm(X * A), X * A) < tol)
end

% each of d is within tol of one of e (eigenvalues in any order)
function [] = assert_same_set(d, e, tol)
    for i = 0..numel(d)-1
        best = abs(d[i] - e[0])
        for j = 1..numel(e)-1
            best = min(best, abs(d[i] - e[j]))
        end
        assert(best < tol)
    end
end

n = 100
tol = 2e-3

% ---- det: of L U products with a known determinant, and against LAPACK ----
m = 12
Lm = eye(m)
Um = zeros(m, m)
dref = 1.0
for i = 0..m-1
    Um[i, i] = 1.0 + 0.1 * i
    dref = dref * Um[i, i]
    for j = 0..m-1
        if j < i
            Lm[i, j] = 0.3 * sin(i + 2.0 * j)
        elseif j > i
            Um[i, j] = cos(3.0 * i - j)
        end
    end
end
assert(abs(det(on_gpu(Lm * Um)) / dref - 1) < 1e-3)
Pc = zeros(m, m)                       % the cyclic shift of rows: det (-1)^(m - 1)
for i = 0..m-1
    Pc[i, mod(i + 1, m)] = 1.0
end
assert(abs(det(on_gpu(Pc * Lm * Um)) / (dref * (-1) ^ (m - 1)) - 1) < 1e-3)
Cm = complex(Um, transpose(Lm) - eye(m))   % upper triangular, complex
cref = complex(1.0, 0.0)
for i = 0..m-1
    cref = cref * Cm[i, i]
end
dc = det(con_gpu(complex(Lm, 0 * Lm) * Cm))
assert(abs(dc / cref - 1) < 1e-3 && abs(dc / det(complex(Lm, 0 * Lm) * Cm) - 1) < 1e-3)
A12 = mat(m, m)
parallel_do(size(A12), A12, 0.29, fill_general)
assert(abs(det(A12) / det(on_host(A12)) - 1) < 1e-2)

% ---- pinv: the Moore-Penrose conditions, tall, wide, rank deficient; as LAPACK's ----
T = mat(n, 40)
parallel_do(size(T), T, 0.11, fill)
Th = on_host(T)
Tp = pinv(T)
assert(size(Tp, 0) == 40 && size(Tp, 1) == n)
assert_penrose(Th, Tp, tol)
assert(maxdiff(Tp, pinv(Th)) < tol * max(abs(Tp)))
Wd = mat(30, 70)
parallel_do(size(Wd), Wd, 0.41, fill)
Wp = pinv(Wd)
assert(size(Wp, 0) == 70 && size(Wp, 1) == 30)
assert_penrose(on_host(Wd), Wp, tol)
assert(maxdiff(Wp, pinv(on_host(Wd))) < tol * max(abs(Wp)))
G = on_gpu(Th * transpose(Th))         % n x n of rank 40
[Ug, Sg, Vg] = svd(Th)
Gp = pinv(G, 1e-3 * Sg[0, 0] * Sg[0, 0])   % the rank cut given
assert_penrose(Th * transpose(Th), Gp, 1e-2)
assert(maxdiff(Gp, pinv(Th * transpose(Th), 1e-3 * Sg[0, 0] * Sg[0, 0])) < 1e-2 * max(abs(Gp)))
Tc = cmat(n, 40)
parallel_do(size(Tc), Tc, 0.11, cfill)
Tcp = pinv(Tc)
assert_penrose(on_host(Tc), Tcp, tol)
assert(maxdiff(Tcp, pinv(on_host(Tc))) < tol * max(abs(Tcp)))

% ---- blas_lu: the packed factors and 0-based row exchanges, P A = L U ----
A = mat(n, n)
parallel_do(size(A), A, 0.23, fill_general)
Ah = on_host(A)
[LU, piv] = blas_lu(A)
[LUh, pivh] = blas_lu(Ah)
L = eye(n)
U = zeros(n, n)
for i = 0..n-1
    for j = 0..n-1
        if j < i
            L[i, j] = LU[i, j]
        else
            U[i, j] = LU[i, j]
        end
    end
end
PA = copy(Ah)
for i = 0..n-1
    assert(piv[i] >= i && piv[i] < n)
    r = PA[i, :]
    PA[i, :] = PA[piv[i], :]
    PA[piv[i], :] = r
end
assert(maxdiff(L * U, PA) < tol * max(abs(Ah)))
x = blas_lusolve(LU, piv, ones(n))
assert(maxdiff(Ah * transpose(x), ones(n, 1)) < 1e-2)

% ---- blas_gesvd: U S V' = A with orthogonal U, V; the values as LAPACK's ----
[Ub, Sb, Vb] = blas_gesvd(T)
assert(maxdiff(Ub * Sb * transpose(Vb), Th) < tol && maxdiff(transpose(Ub) * Ub, eye(n)) < tol)
[Ubh, Sbh, Vbh] = blas_gesvd(Th)
assert(maxdiff(Sb, Sbh) < tol * Sbh[0, 0])

% ---- least squares: the normal equations, the smallest solution; as LAPACK's ----
b = rand(n)
xt = solve(T, b)                       % T' (T x - b) = 0
assert(numel(xt) == 40)
res = Th * transpose(xt) - transpose(b)
assert(max(abs(transpose(Th) * res)) < tol * max(abs(Th)) * n)
assert(maxdiff(xt, solve(Th, b)) < tol * max(abs(xt)))
B = rand(n, 3)
XB = mldivide(T, B)
assert(max(abs(transpose(Th) * (Th * XB - B))) < tol * max(abs(Th)) * n)
c = rand(30)
xw = solve(Wd, c)                      % Wd x = c, x the smallest: x = pinv(Wd) c
assert(maxdiff(on_host(Wd) * transpose(xw), transpose(c)) < tol)
assert(maxdiff(transpose(xw), pinv(on_host(Wd)) * transpose(c)) < tol)
assert(maxdiff(xw, solve(on_host(Wd), c)) < tol)
CB = rand(30, 2)
XW = solve(Wd, CB)
assert(maxdiff(on_host(Wd) * XW, CB) < tol && size(XW, 0) == 70)
cb = complex(rand(n), rand(n))
xc = solve(Tc, cb)
Tch = on_host(Tc)
assert(max(abs(herm(Tch) * (Tch * transpose(xc) - transpose(cb)))) < tol * max(abs(Tch)) * n)
assert(maxdiff(xc, solve(Tch, cb)) < tol * max(abs(xc)))
Wc = cmat(30, 70)
parallel_do(size(Wc), Wc, 0.41, cfill)
cc = complex(rand(30), rand(30))
xwc = solve(Wc, cc)
assert(maxdiff(on_host(Wc) * transpose(xwc), transpose(cc)) < tol)
assert(maxdiff(xwc, solve(on_host(Wc), cc)) < tol)

% ---- eig of a matrix that is not symmetric: A V = V diag(d), unit columns; as LAPACK's ----
[V, d] = eig(A)
assert(maxdiff(Ah * V, V * diag(d)) < tol * max(abs(d)))
for j = 0..n-1
    assert(abs(sum(abs(V[:, j]) .^ 2) - 1) < tol)
end
[Vh, dh] = eig(Ah)
assert_same_set(d, dh, tol * max(abs(dh)))
C = cmat(n, n)
parallel_do(size(C), C, 0.23, cfill)
[Vc, dcv] = eig(C)
Ch = on_host(C)
assert(maxdiff(Ch * Vc, Vc * diag(dcv)) < tol * max(abs(dcv)))
[Vch, dch] = eig(Ch)
assert_same_set(dcv, dch, tol * max(abs(dch)))
print "ok"
