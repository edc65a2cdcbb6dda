% bench/lib/lib.q: oq's side of bench/lib/run.sh. `oq run [--target T] bench/lib/lib.q WHAT N
% REPS` prints "oq WHAT NxN: T ms", the fastest of REPS rounds, each the mean over a few
% back-to-back calls (toc waits for the GPU). WHAT: fft2 (an N x N complex array) or sgemm
% (N x N scalars, the matrix product '*', which goes to GEMM).
function [] = main(what : string, n : int, reps : int)
    if what == "fft2"
        x = complex(rand(n, n), rand(n, n))
        y = fft2(x)                     % plans, loads the library, uploads x on the GPU
        iters = 20
    else
        x = rand(n, n)
        b = rand(n, n)
        y = x * b
        iters = 2
    end
    best = 1e30
    for r = 1..reps
        tic()
        for i = 1..iters
            if what == "fft2"
                y = fft2(x)
            else
                y = x * b
            end
        end
        t = toc("round") / iters
        best = min(best, t)
    end
    printf("oq %s %dx%d: %.4f ms\n", what, n, n, best)
end
