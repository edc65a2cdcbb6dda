% SANITIZE_ARGS: 200 3
% tests/gpu.sh (launch step): the host time of parallel_do of a trivial kernel, back to back
% (batched into CUDA graphs unless OQ_DEV_CUDA_GRAPHS=0: rt_cuda.c),
% against as many launches of an empty kernel without oq's launch path (oq_bare_launch_us:
% cuLaunchKernel alone) in the same process, batch after batch; toc and oq_bare_launch_us
% wait for the GPU, so the times are those of finished work. Prints the median batch of each.
function [] = __kernel__ k_trivial(x : vec, pos : int)
    x[pos] = 1
endfunction

% the median of v (odd length): the value with as many smaller as larger ones
function m = median_of(v : vec)
    m = v[0]
    for i = 0..numel(v)-1
        below = 0
        above = 0
        for j = 0..numel(v)-1
            below += v[j] < v[i] ? 1 : 0
            above += v[j] > v[i] ? 1 : 0
        endfor
        if 2 * below < numel(v) && 2 * above < numel(v)
            m = v[i]
        endif
    endfor
endfunction

% n launches in each of nb batches (smaller under the sanitizer)
function [] = main(n : int = 20000, nb : int = 9)
    x = zeros(1)
    parallel_do(1, x, k_trivial)
    w = oq_bare_launch_us(1000)   % the empty kernel compiled and loaded
    oq_us = zeros(nb)
    bare_us = zeros(nb)
    for b = 0..nb-1
        x[0] = 0
        tic()
        for r = 1..n
            parallel_do(1, x, k_trivial)
        endfor
        oq_us[b] = 1000 * toc("batch of 20000 launches") / n
        assert(x[0] == 1)
        bare_us[b] = oq_bare_launch_us(n)
    endfor
    printf("launch: %.3f us per parallel_do, bare cuLaunchKernel %.3f us (medians of %d batches; fastest %.3f and %.3f)\n",
           median_of(oq_us), median_of(bare_us), nb, min(oq_us), min(bare_us))
endfunction
