% bench/arrayexpr/tvparts.q: where a TV iteration's time goes (each part 100 times). "two
% passes": the update reads g twice, so the launch is not fused (before issue 20's launch
% fusion, every TV step ran so); "both": one kernel per iteration that writes g (read after
% the loop); "both fused": one kernel per iteration, its gradient array never written.
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
            u = u - 0.05 * ((u - noisy) - 0.1 * g - 0.1 * g)
        endfor
        v = u[0]
        toc("two passes")
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
