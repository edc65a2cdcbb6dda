% bench/arrayexpr/tvloop.q [N [REPS]]: the TV loop of exprs.q alone (gradient kernel fused with the
% update, REPS iterations, nothing read back, no reduction): toc per round, round 2 warm.
% Its JAX peer: bench/arrayexpr/tvloop_jax.py N REPS (per iteration). Session 19, H200.
import "exprs.q"
function [] = main(n : int = 4096, reps : int = 500)
    x = rand(n, n)
    noisy = x + 0
    g = zeros(n, n)
    u = noisy + 0
    for r = 1..2
    tic()
    for it = 1..reps
        parallel_do(size(u), u, g, tv_grad)
        u = u - 0.05 * ((u - noisy) - 0.2 * g)
    endfor
    toc("loop")
    endfor
endfunction
