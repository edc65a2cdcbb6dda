% EXPECT: 1 ^tests/errors/shfl_barrier\.q:8:(9|18): runtime error: kernel 'early': .*warp.*lane 0 is at shfl .line 8., lane 1 at a barrier .line 10.
% Lane 0 of each warp waits at a shuffle while the others wait at the block's barrier: the
% shuffle needs them and the barrier needs lane 0, so neither can complete.
function [] = __kernel__ early(y : vec, coalesced_threads : thread_block, pos : int)
    v = pos * 1.0
    lane = coalesced_threads.thread_idx
    if lane == 0
        y[pos] = coalesced_threads.shfl(v, 3)
    endif
    syncthreads
    y[pos] += 1
endfunction
y = zeros(64)
parallel_do([[64], [64]], y, early)
print y
