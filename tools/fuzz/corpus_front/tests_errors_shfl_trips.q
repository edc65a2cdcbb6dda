% EXPECT: 1 ^tests/errors/shfl_trips\.q:[0-9]+:[0-9]+: runtime error: .*(warp|lane)
% Seed 001's reduce_sum loop over data that is not a multiple of the launch: lanes 32 to 35
% of the second warp run the loop twice, its other lanes once, so their second shuffle has
% no partners (in CUDA a hang or garbage); the interpreter names the lanes, the CUDA dialect
% checks each warp's trip counts before the loop.
function y : scalar = __kernel__ partial(coalesced_threads : thread_block, x : vec, pos : int, blkdim : int, blkcnt : int)
    total = 0.0
    for index = pos..blkdim*blkcnt..numel(x)-1
        val = x[index]
        val += coalesced_threads.shfl_down(val, 1)
        total += val
    endfor
    if coalesced_threads.thread_idx == 0
        y += total
    endif
endfunction
x = ones(100)
s = parallel_do([[64], [64]], x, partial)
print s
