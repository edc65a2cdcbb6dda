% bench/arrayexpr/reduce_probe.q [N [REPS]]: us per evaluation of a whole-array reduction whose
% number comes back (s = sum(x .* x), m = max(abs(x))) and of a map (y = x .* 2), three rounds
% (the last printed is warm); session 20's probe (bench/results/2026-11-28-*-session20.txt).
function [] = main(n : int = 2048, reps : int = 400)
    x = rand(n, n)
    s = sum(x .* x)
    y = x .* 2
    m = 0.0
    for round = 1..3
        tic()
        for r = 1..reps
            s = sum(x .* x)
        endfor
        ts = toc()
        tic()
        for r = 1..reps
            m = max(abs(x))
        endfor
        tm = toc()
        tic()
        for r = 1..reps
            y = x .* 2
        endfor
        ty = toc()
        print "n=", n, " sum ", 1000 * ts / reps, " us  max(abs) ", 1000 * tm / reps, " us  map ", 1000 * ty / reps, " us"
    endfor
    print "check: ", abs(s - sum(x .* x)), " ", s
endfunction
