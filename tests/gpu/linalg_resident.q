% tests/gpu.sh (pool step) runs this with --profile and wants no upload and no download:
% on --target cuda a matrix that a kernel made is factorized by cuSOLVER where it lies
% (chol, inv, solve, pinv, least squares, det), the factors stay on the GPU, and kernels
% check them; only the numbers of the reductions (max, sum) and det's come back.

function [] = __kernel__ spd(p : mat, n : int, pos : ivec2)
    d = abs(pos[0] - pos[1])
    p[pos] = 1.0 / (1.0 + d) + (d == 0 ? n : 0.0)
end

function [] = __kernel__ gram_err(r : mat, p : mat, e : mat, n : int, pos : ivec2)
    s = 0.0
    for k = 0..n-1
        s += r[k, pos[0]] * r[k, pos[1]]
    end
    e[pos] = abs(s - p[pos]) + (pos[0] > pos[1] && r[pos] != 0.0 ? 1.0 : 0.0)
end

function [] = __kernel__ prod_err(a : mat, x : mat, e : mat, n : int, pos : ivec2)
    s = 0.0
    for k = 0..n-1
        s += a[pos[0], k] * x[k, pos[1]]
    end
    e[pos] = abs(s - (pos[0] == pos[1] ? 1.0 : 0.0))
end

function [] = __kernel__ solve_err(a : mat, x : vec, b : vec, e : vec, n : int, pos : int)
    s = 0.0
    for k = 0..n-1
        s += a[pos, k] * x[k]
    end
    e[pos] = abs(s - b[pos])
end

function [] = __kernel__ residual(a : mat, x : vec, b : vec, r : vec, k : int, pos : int)
    s = 0.0
    for j = 0..k-1
        s += a[pos, j] * x[j]
    end
    r[pos] = s - b[pos]
end

function [] = __kernel__ normal_eq(a : mat, r : vec, g : vec, n : int, pos : int)
    s = 0.0
    for i = 0..n-1
        s += a[i, pos] * r[i]
    end
    g[pos] = abs(s)
end

function [] = __kernel__ ramp(b : vec, pos : int)
    b[pos] = sin(pos * 0.1)
end

n = 256
P = mat(n, n)
parallel_do(size(P), P, n, spd)
E = mat(n, n)

R = chol(P)                              % R' R = P, R upper
parallel_do(size(E), R, P, E, n, gram_err)
assert(max(E) < 1e-3 * n)

X = inv(P)                               % P X = I
parallel_do(size(E), P, X, E, n, prod_err)
assert(max(E) < 1e-4 * n)

b = vec(n)
parallel_do(n, b, ramp)
x = solve(P, b)                          % P x = b
e = vec(n)
parallel_do(n, P, x, b, e, n, solve_err)
assert(max(e) < 1e-4 * n)

X = pinv(P)                              % P X = I
parallel_do(size(E), P, X, E, n, prod_err)
assert(max(E) < 1e-4 * n)

% least squares: the normal equations T' (T x - b) = 0
k = 16
T = mat(n, k)
parallel_do(size(T), T, __kernel__ (t : mat, pos : ivec2) -> t[pos] = sin(pos[0] * 0.13 + pos[1] * 0.7) + (pos[0] == pos[1] ? 2.0 : 0.0))
xt = solve(T, b)
r = vec(n)
parallel_do(n, T, xt, b, r, k, residual)
g = vec(k)
parallel_do(k, T, r, g, n, normal_eq)
assert(max(g) < 1e-3 * n)

% det of a small matrix: det(P12) = prod(diag(R))^2 for R = chol(P12)
P12 = mat(12, 12)
parallel_do(size(P12), P12, 12, spd)
d12 = det(P12)
R12 = chol(P12)
lg = vec(12)
parallel_do(12, R12, lg, __kernel__ (r : mat, l : vec, pos : int) -> l[pos] = log(r[pos, pos]))
assert(abs(log(d12) - 2 * sum(lg)) < 1e-3 * abs(log(d12)))
print "ok"
