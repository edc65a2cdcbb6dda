% Cooperative groups' warp collectives (docs/language.md, "Cooperative groups"): a warp is 32
% consecutive threads of a block in row-major order, the block's last warp partial (blocks
% of 48 threads: warps of 32 and 16). Every thread records its lane, its warp's size and
% the results of shfl, shfl_up, shfl_down, shfl_xor (int, scalar and vector values; source
% lanes outside the warp), ballot, all and any; the host checks them against closed forms
% of the thread's linear index t in its block and its block's index b.

% the values thread t of block b brings: an int, a scalar
function v : int = ival(t : int, b : int)
    v = t * 3 + 1 + 1000 * b
endfunction
function v : scalar = sval(t : int, b : int)
    v = t * 0.5 + 100 * b
endfunction

NCOL = 14

% row r of out: thread t of block b, its lane and size as the kernel sees them
function [] = __device__ record(out : mat, r : int, t : int, b : int, lane : int, n : int, _
        v2 : int, s3 : scalar, v4 : int, s5 : scalar, v6 : int, v7 : int, bal : int, al : bool, an : bool, w : ivec2)
    out[r, 0] = lane
    out[r, 1] = n
    out[r, 2] = v2
    out[r, 3] = s3
    out[r, 4] = v4
    out[r, 5] = s5
    out[r, 6] = v6
    out[r, 7] = v7
    out[r, 8] = and(bal, 65535)
    out[r, 9] = shr(bal, 16)
    out[r, 10] = al
    out[r, 11] = an
    out[r, 12] = w[0]
    out[r, 13] = w[1]
endfunction

function [] = __kernel__ shuffles_1d(out : mat, coalesced_threads : thread_block, blkpos : int, blkidx : int, blkdim : int)
    t = blkpos
    b = blkidx
    lane = coalesced_threads.thread_idx
    n = coalesced_threads.size
    v = ival(t, b)
    s = sval(t, b)
    w = [v, v + 1]
    coalesced_threads.sync()
    v2 = coalesced_threads.shfl(v, 5)
    s3 = coalesced_threads.shfl(s, lane + 7)
    v4 = coalesced_threads.shfl_up(v, 3)
    s5 = coalesced_threads.shfl_down(s, 4)
    syncthreads(warp)
    v6 = coalesced_threads.shfl_xor(v, 9)
    v7 = coalesced_threads.shfl(v, -1)
    bal = coalesced_threads.ballot(mod(lane, 3) == 0)
    al = coalesced_threads.all(lane < n)
    an = coalesced_threads.any(lane == 5)
    w2 = coalesced_threads.shfl_xor(w, 1)
    record(out, b * blkdim + t, t, b, lane, n, v2, s3, v4, s5, v6, v7, bal, al, an, w2)
endfunction

function [] = __kernel__ shuffles_2d(out : mat, coalesced_threads : thread_block, blkpos : ivec2, blkidx : ivec2, _
        blkdim : ivec2, blkcnt : ivec2)
    t = blkpos[0] * blkdim[1] + blkpos[1]
    b = blkidx[0] * blkcnt[1] + blkidx[1]
    lane = coalesced_threads.thread_idx
    n = coalesced_threads.size
    v = ival(t, b)
    s = sval(t, b)
    w = [v, v + 1]
    v2 = coalesced_threads.shfl(v, 5)
    s3 = coalesced_threads.shfl(s, lane + 7)
    v4 = coalesced_threads.shfl_up(v, 3)
    s5 = coalesced_threads.shfl_down(s, 4)
    v6 = coalesced_threads.shfl_xor(v, 9)
    v7 = coalesced_threads.shfl(v, -1)
    bal = coalesced_threads.ballot(mod(lane, 3) == 0)
    al = coalesced_threads.all(lane < n)
    an = coalesced_threads.any(lane == 5)
    w2 = coalesced_threads.shfl_xor(w, 1)
    record(out, b * blkdim[0] * blkdim[1] + t, t, b, lane, n, v2, s3, v4, s5, v6, v7, bal, al, an, w2)
endfunction

% the closed forms, by a serial loop over the blocks and their threads
function [] = check(out : mat, nthreads : int, nblocks : int)
    b = 0
    while b < nblocks
        t = 0
        while t < nthreads
            r = b * nthreads + t
            lane = mod(t, 32)
            w0 = t - lane
            n = min(32, nthreads - w0)
            up = lane >= 3 ? lane - 3 : lane
            down = lane + 4 < n ? lane + 4 : lane
            x9 = xor(lane, 9) < n ? xor(lane, 9) : lane
            lo = 0   % the ballot's bits 0-15 and 16-31 (each exact in a scalar)
            hi = 0
            k = 0
            while k < n
                if mod(k, 3) == 0 && k < 16
                    lo += 2^k
                elseif mod(k, 3) == 0
                    hi += 2^(k - 16)
                endif
                k += 1
            endwhile
            x1 = xor(lane, 1) < n ? xor(lane, 1) : lane
            want = [lane, n, ival(w0 + mod(5, n), b), sval(w0 + mod(lane + 7, n), b), ival(w0 + up, b), _
                    sval(w0 + down, b), ival(w0 + x9, b), ival(w0 + n - 1, b), lo, hi, _
                    1, n > 5, ival(w0 + x1, b), ival(w0 + x1, b) + 1]
            k = 0
            while k < NCOL
                if out[r, k] != want[k]
                    print "block ", b, " thread ", t, " column ", k, ": ", out[r, k], ", want ", want[k]
                    assert(out[r, k] == want[k])
                endif
                k += 1
            endwhile
            t += 1
        endwhile
        b += 1
    endwhile
endfunction

% 1-D blocks of 64 (two full warps) and of 48 (a warp of 32 and one of 16)
for B = [64, 48]
    out = ones(2 * B, NCOL) * -7   % poisoned
    parallel_do([[2 * B], [B]], out, shuffles_1d)
    check(out, B, 2)
endfor
% 2-D blocks of 4 x 16 and 3 x 16 (48 threads) in grids of 2 x 2 blocks
for R = [4, 3]
    out = ones(4 * R * 16, NCOL) * -7
    parallel_do([[2 * R, 32], [R, 16]], out, shuffles_2d)
    check(out, R * 16, 4)
endfor
% lane and size alone (the C back end compiles these), and this_thread_block: its linear
% index, size and barrier (the block reversed through shared memory)
function [] = __kernel__ lanes(out : mat, coalesced_threads : thread_block, this_thread_block : thread_block, _
        blkpos : ivec2, blkdim : ivec2, blkidx : ivec2, blkcnt : ivec2)
    t = this_thread_block.thread_idx
    r = (blkidx[0] * blkcnt[1] + blkidx[1]) * this_thread_block.size + t
    out[r, 0] = coalesced_threads.thread_idx
    out[r, 1] = coalesced_threads.size
    out[r, 2] = t - pos2ind(blkdim, blkpos)
    out[r, 3] = this_thread_block.size
endfunction

function [] = __kernel__ reverse(out : vec, this_thread_block : thread_block, pos : int, blkpos : int, blkdim : int)
    s = shared(blkdim)
    s[this_thread_block.thread_idx] = pos
    this_thread_block.sync()
    out[pos] = s[this_thread_block.size - 1 - this_thread_block.thread_idx]
endfunction

out = ones(4 * 48, 4) * -7
parallel_do([[6, 32], [3, 16]], out, lanes)
r = 0
while r < 4 * 48
    t = mod(r, 48)
    assert(out[r, 0] == mod(t, 32) && out[r, 1] == (t < 32 ? 32 : 16) && out[r, 2] == 0 && out[r, 3] == 48)
    r += 1
endwhile
v = ones(96) * -7
parallel_do([[96], [48]], v, reverse)
r = 0
while r < 96
    assert(v[r] == 48 * floor(r / 48) + 47 - mod(r, 48))
    r += 1
endwhile
print "ok"
