% bench/arrayexpr/tvparts.q: where a TV iteration's time goes (each part 100 times). "both"
% reads g after its loop (g is written: two passes); "both fused" is one kernel per iteration.
import "exprs.q"
function [] = main(n : int = 2048)
    x = rand(n, n)
    noisy = x + 0
    g = zeros(n, n)
    u = noisy + 0
    for round = 1..2
        tic()
        for it = 1..100
            parallel_do(size(u), u, g, tv_grad)
        endfor
        v = g[0]
        toc("grad only")
        tic()
        for it = 1..100
            u = u - 0.05 * ((u - noisy) - 0.2 * g)
        endfor
        v = u[0]
        toc("update only")
        tic()
        for it = 1..100
            w = u - 0.05 * ((u - noisy) - 0.2 * g)
        endfor
        v = w[0]
        toc("update into w")
        tic()
        for it = 1..100
            parallel_do(size(u), u, g, tv_grad)
            u = u - 0.05 * ((u - noisy) - 0.2 * g)
        endfor
        v = u[0]
        toc("both")
        gb = zeros(n, n)   % read nowhere after the loop: the launch fuses with the update
        tic()
        for it = 1..100
            parallel_do(size(u), u, gb, tv_grad)
            u = u - 0.05 * ((u - noisy) - 0.2 * gb)
        endfor
        v = u[0]
        toc("both fused")
    endfor
endfunction
