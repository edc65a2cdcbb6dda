% bench/lib/linalg.q: `oq run --target cuda [--precision P] bench/lib/linalg.q WHAT N REPS`
% prints "oq WHAT NxN: T ms", the fastest of REPS rounds, each the mean over back-to-back
% calls (toc waits for the GPU). WHAT: chol (R = chol(A)), solve (x = solve(A, b), b a
% vec), det or pinv of an N x N symmetric positive definite A that a kernel made; lstsq
% (x = solve(T, b) of a 2N x N T, least squares) or eig (of an N x N matrix that is not
% symmetric). On --target cuda the matrix lies on the GPU, and cuSOLVER works on it there
% (the result stays there too; det brings back its number). On --target cpu: LAPACK.
% bench/lib/linalg_peers.py times CuPy's cupy.linalg on the same matrices.

function [] = __kernel__ spd(p : mat, n : int, pos : ivec2)
    d = abs(pos[0] - pos[1])
    p[pos] = 1.0 / (1.0 + d) + (d == 0 ? n : 0.0)
end

function [] = __kernel__ general(p : mat, pos : ivec2)
    p[pos] = sin(pos[0] * 0.37 + pos[1] * 0.23) + cos(pos[0] * pos[1] * 0.011)
end

function y = op(what : string, A, T, b, b2)
    if what == "chol"
        y = chol(A)
    elseif what == "solve"
        y = solve(A, b)
    elseif what == "det"
        y = det(A)
    elseif what == "pinv"
        y = pinv(A)
    elseif what == "lstsq"
        y = solve(T, b2)
    else
        [V, d] = eig(A)
        y = d
    end
end

function [] = main(what : string, n : int, reps : int)
    A = mat(n, n)
    if what == "eig"
        parallel_do(size(A), A, general)
    else
        parallel_do(size(A), A, n, spd)
    end
    T = mat(what == "lstsq" ? 2 * n : 1, n)
    parallel_do(size(T), T, general)
    b = vec(n)
    parallel_do(n, b, __kernel__ (b : vec, pos : int) -> b[pos] = sin(pos * 0.1))
    b2 = vec(size(T, 0))
    parallel_do(size(b2), b2, __kernel__ (b : vec, pos : int) -> b[pos] = cos(pos * 0.1))
    y = op(what, A, T, b, b2)                % loads cuSOLVER, compiles its kernels
    iters = what == "eig" || what == "pinv" ? 3 : 10
    best = 1e30
    for r = 1..reps
        tic()
        for i = 1..iters
            y = op(what, A, T, b, b2)
        end
        t = toc("round") / iters
        best = min(best, t)
    end
    printf("oq %s %dx%d: %.4f ms\n", what, n, n, best)
end
