% tests/gpu.sh (launch step): a host loop whose body launches a kernel and then does host
% work (array arithmetic on a host array) overlaps the two: launches wait in a queue to be
% batched (rt_cuda.c), and a statement of a host loop that took long the last time submits
% them first (interp.c, exec_timed). Prints the time of the kernels alone, of the host work
% alone and of the loop with both; the results are checked against host loops.

function [] = __kernel__ busy(x : vec, iters : int, pos : int)
    v = x[pos]
    for k = 0..iters-1
        v = v * 0.5 + 1
    endfor
    x[pos] = v
endfunction

function [] = main()
    n = 2^16
    iters = 1000000   % about 3 ms per launch on an H100
    reps = 10
    x = zeros(n)
    h = ones(2^19)
    parallel_do(n, x, iters, busy)   % compiled
    x0 = x[0]

    tic()
    for r = 1..reps
        parallel_do(n, x, iters, busy)
    endfor
    xs = x[0]   % waits for the kernels
    tk = toc("kernels alone")

    tic()
    for r = 1..reps
        h = h * 0.5 + 1
    endfor
    th = toc("host work alone")

    tic()
    for r = 1..reps
        parallel_do(n, x, iters, busy)
        h = h * 0.5 + 1
    endfor
    xb = x[0]
    tb = toc("both in one loop")

    % v -> v/2 + 1 converges to 2 from any start: every element is 2 (within rounding)
    assert(abs(x0 - 2) < 1e-5 && abs(xs - 2) < 1e-5 && abs(xb - 2) < 1e-5 && abs(h[7] - 2) < 1e-5)
    printf("overlap: both in one loop took %.2f of the two alone (1: no overlap), %.2f of the longer\n", tb / (tk + th), tb / max(tk, th))
endfunction
