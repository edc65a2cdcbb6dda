% bench/arrayexpr/ncu.q: one launch of the TV kernel (tv_grad's launch fused with the update:
% g dies there) and of the map expression at 4096^2, for a profiler (bench/arrayexpr/bw.sh
% runs it under ncu when ncu is there).
import "exprs.q"
function [] = main(n : int = 4096)
    x = rand(n, n)
    h = rand(n, n)
    g = zeros(n, n)
    y = x .* h + 0.5*cos(x)
    parallel_do(size(x), x, g, tv_grad)
    u = x - 0.05 * ((x - h) - 0.2 * g)
    print "ncu: ", u[0] + y[0]
endfunction
