% bench/lib/linalg.q: `oq run --target cuda [--precision P] bench/lib/linalg.q WHAT N REPS`
% prints "oq WHAT NxN: T ms", the fastest of REPS rounds, each the mean over back-to-back
% calls (toc waits for the GPU). WHAT: chol (R = chol(A)) or solve (x = solve(A, b), b a
% vec) of an N x N symmetric positive definite A that a kernel made: on --target cuda it
% lies on the GPU, and cuSOLVER factorizes it there (the result stays there too).
% bench/lib/linalg_peers.py times CuPy's cupy.linalg on the same matrices.

function [] = __kernel__ spd(p : mat, n : int, pos : ivec2)
    d = abs(pos[0] - pos[1])
    p[pos] = 1.0 / (1.0 + d) + (d == 0 ? n : 0.0)
end

function [] = main(what : string, n : int, reps : int)
    A = mat(n, n)
    parallel_do(size(A), A, n, spd)
    b = vec(n)
    parallel_do(n, b, __kernel__ (b : vec, pos : int) -> b[pos] = sin(pos * 0.1))
    y = what == "chol" ? chol(A) : solve(A, b)   % loads cuSOLVER, compiles its kernels
    iters = 10
    best = 1e30
    for r = 1..reps
        tic()
        for i = 1..iters
            if what == "chol"
                y = chol(A)
            else
                y = solve(A, b)
            end
        end
        t = toc("round") / iters
        best = min(best, t)
    end
    printf("oq %s %dx%d: %.4f ms\n", what, n, n, best)
end
