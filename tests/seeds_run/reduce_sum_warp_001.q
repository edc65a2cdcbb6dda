% Seed 001 (Quasar - CUDA Support GUIDE, "Warp shuffling operations"): a sum by warp
% shuffles. Each thread strides over x by the launch's thread count; at every step the five
% shfl_down calls leave lane 0 of each warp with the sum of its warp's 32 values, and lane 0
% adds its running total to the kernel output y. The seed assumes numel(x) is a multiple of
% the warp size (every lane of a warp takes the same number of steps); the driver's sizes
% are. Values are small integers and halves, so every order of additions is exact and the
% result must equal a serial host sum. {!kernel target="nvidia_cuda"} is ignored: on the
% CPU the kernel runs in the interpreter (docs/language.md, "Cooperative groups").

function y : scalar = __kernel__ reduce_sum(coalesced_threads : thread_block, x : vec'unchecked, blkpos : int, pos : int, blkdim : int, blkcnt : int)
    {!kernel target="nvidia_cuda"}
    lane = coalesced_threads.thread_idx
    total = 0.0

    for index=pos..blkdim*blkcnt..numel(x)-1
        val = x[index]
        val += coalesced_threads.shfl_down(val, 16)
        val += coalesced_threads.shfl_down(val, 8)
        val += coalesced_threads.shfl_down(val, 4)
        val += coalesced_threads.shfl_down(val, 2)
        val += coalesced_threads.shfl_down(val, 1)
        total += val
    endfor

    % Atomics for accumulation
    if lane==0
        y += total
    endif
endfunction

% the reference: a serial loop (a while loop is never parallelized)
function s = serial_sum(x : vec)
    s = 0.0
    i = 0
    while i < numel(x)
        s += x[i]
        i += 1
    endwhile
endfunction

function x = test_data(n : int)
    x = zeros(n)
    i = 0
    while i < n
        x[i] = mod(i * 7, 13) - 6 + 0.5 * mod(i, 2)
        i += 1
    endwhile
endfunction

% [numel(x), launch threads, block]: several steps per thread, one step, and one block
cases = [[8192, 2048, 256], [1024, 1024, 64], [96, 96, 96]]
c = 0
while c < size(cases, 0)
    n = cases[c, 0]
    x = test_data(n)
    y = parallel_do([[cases[c, 1]], [cases[c, 2]]], x, reduce_sum)
    r = serial_sum(x)
    assert(r != 0)   % a kernel that adds nothing fails
    print "n=", n, " threads=", cases[c, 1], " block=", cases[c, 2], ": ", y, " (serial ", r, ")"
    assert(y == r)
    c += 1
endwhile
