% bench/arrayexpr/along.q [N] [REPS]: reductions along a dimension (docs/language.md, "Host
% array expressions": one pass, or lanes and their fold) over shapes the lanes treat
% differently; each case REPS times after a warm-up, the fastest of 3 rounds, in ms per
% evaluation (toc waits for the GPU). OQ_DEV_ALONG_LANES=C forces C lanes (1: one pass),
% OQ_DEV_CUDA_KTIME=1 prints each launch's device time (the lanes' pass and the fold's).
function [] = main(n : int = 2048, reps : int = 20)
    x = rand(n, n)
    h = rand(n, n)
    c3 = rand(n, n, 3)
    tall = rand(n * n / 16, 16)
    r = sum(x, 1)
    for case = 0..6
        best = 1e30
        for round = 0..3   % (round 0: compiles)
            tic()
            for k = 1..reps
                match case with
                | 0 -> r = sum(x .* h, 0)
                | 1 -> r = sum(x, 1)
                | 2 -> r = mean(x, 1)
                | 3 -> r = max(x, [], 0)
                | 4 -> r = sum(c3, 2)
                | 5 -> r = sum(c3, 1)
                | _ -> r = sum(tall, 0)
                endmatch
            endfor
            t = toc()
            if round > 0
                best = min(best, t)
            endif
        endfor
        print "oq along ", case, ": ", best / reps, " ms"
    endfor
    print "(cases: sum(x .* h, 0), sum(x, 1), mean(x, 1), max(x, [], 0) of n x n; sum(c3, 2), sum(c3, 1) of n x n x 3; sum(t, 0) of n*n/16 x 16)"
endfunction
