% bench/arrayexpr/rowsum.q [N] [REPS] [ROUNDS]: reductions along the contiguous dimension
% (issue 20's sum(x, 1)) and two along dimension 0, n x n; each case REPS times after a
% warm-up, the fastest of ROUNDS rounds (more, shorter rounds on a loaded machine); prints
% "oq caseK: T ms" per evaluation (bench/arrayexpr/rowsum.sh runs it on 1 and 2 threads,
% float and double, next to NumPy).
function [] = main(n : int = 2048, reps : int = 20, rounds : int = 3)
    x = rand(n, n)
    h = rand(n, n)
    r = sum(x, 1)
    for case = 0..6
        best = 1e30
        for round = 0..rounds   % (round 0: compiles)
            tic()
            for k = 1..reps
                match case with
                | 0 -> r = sum(x, 1)
                | 1 -> r = mean(x, 1)
                | 2 -> r = max(x, [], 1)
                | 3 -> r = min(x, [], 1)
                | 4 -> r = sum(x .* h, 1)
                | 5 -> r = sum(x, 0)
                | _ -> r = sum(x .* h, 0)
                endmatch
            endfor
            t = toc()
            if round > 0
                best = min(best, t)
            endif
        endfor
        print "oq case", case, ": ", best / reps, " ms"
    endfor
endfunction
