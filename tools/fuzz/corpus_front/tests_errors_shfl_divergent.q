% EXPECT: 1 ^tests/errors/shfl_divergent\.q:7:(9|18): runtime error: kernel 'shift': .*warp.*lane 0 is at shfl_down \(line 7\), lane 16 at shfl_up \(line 9\)
% The two halves of each warp wait at different shuffles: they can never meet (in CUDA a
% hang or garbage); the interpreter says where.
function [] = __kernel__ shift(y : vec, coalesced_threads : thread_block, pos : int)
    v = pos * 1.0
    if coalesced_threads.thread_idx < 16
        y[pos] = coalesced_threads.shfl_down(v, 1)
    else
        y[pos] = coalesced_threads.shfl_up(v, 1)
    endif
endfunction
y = zeros(64)
parallel_do([[64], [64]], y, shift)
print y
