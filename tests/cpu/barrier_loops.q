% Kernels with syncthreads inside loops and conditions that every thread of a block
% agrees on: a tree reduction in a while loop, a for loop over tiles with two barriers each,
% a repeat-until, and an if around a barrier. Checked against host loops.

% tree reduction per block (10.6 my_sum, with the reduction written to a vector)
function [] = __kernel__ block_sums(x : vec, out : vec, blkpos : int, blkdim : int, blkidx : int)
    bins = shared(blkdim)
    bins[blkpos] = x[blkidx * blkdim + blkpos]
    syncthreads
    bit = 1
    while bit < blkdim
        if mod(blkpos, 2 * bit) == 0
            bins[blkpos] = bins[blkpos] + bins[blkpos + bit]
        endif
        syncthreads
        bit *= 2
    endwhile
    if blkpos == 0
        out[blkidx] = bins[0]
    endif
endfunction

% prefix sums within a block by tiles of a for loop (Hillis-Steele), two barriers a step
function [] = __kernel__ scan(x : vec, y : vec, steps : int, blkpos : int, blkdim : int, blkidx : int)
    a = shared(blkdim)
    base = blkidx * blkdim
    a[blkpos] = x[base + blkpos]
    syncthreads
    for s = 0..steps-1
        d = 2^s
        v = a[blkpos]
        if blkpos >= d
            v += a[blkpos - d]
        endif
        syncthreads
        a[blkpos] = v
        syncthreads
    endfor
    y[base + blkpos] = a[blkpos]
endfunction

% repeat-until and if around barriers: rotate a block's values k times
function [] = __kernel__ rotate(x : vec, y : vec, k : int, flag : int, blkpos : int, blkdim : int, blkidx : int)
    s = shared(blkdim)
    s[blkpos] = x[blkidx * blkdim + blkpos]
    syncthreads
    n = 0
    repeat
        v = s[mod(blkpos + 1, blkdim)]
        syncthreads
        s[blkpos] = v
        syncthreads
        n += 1
    until n >= k
    if flag > 0
        v = s[blkpos] * 2
        syncthreads
        s[blkpos] = v
    endif
    syncthreads
    y[blkidx * blkdim + blkpos] = s[blkpos]
endfunction

B = 64
nb = 40
N = B * nb
x = zeros(N)
for i = 0..N-1
    x[i] = mod(i * 13, 29) - 14
endfor
out = zeros(nb)
parallel_do([[N], [B]], x, out, block_sums)
for b = 0..nb-1
    s = 0
    for i = 0..B-1
        s += x[b * B + i]
    endfor
    assert(out[b] == s)
endfor

y = zeros(N)
parallel_do([[N], [B]], x, y, 6, scan)
for b = 0..nb-1
    s = 0
    for i = 0..B-1
        s += x[b * B + i]
        assert(y[b * B + i] == s)
    endfor
endfor

z = zeros(N)
parallel_do([[N], [B]], x, z, 3, 1, rotate)
for b = 0..nb-1
    for i = 0..B-1
        assert(z[b * B + i] == 2 * x[b * B + mod(i + 3, B)])
    endfor
endfor
print "barrier_loops: ok"
