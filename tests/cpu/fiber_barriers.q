% Barriers that not every thread of a block reaches alike (the CPU runs such blocks as
% fibers, like the oracle): threads that finished do not hold a barrier back, and threads
% waiting at any barrier go on together. Seed 10.7's tree (a barrier under a thread-dependent
% condition) on several blocks of a size that is not a power of two, barriers in both
% branches of a thread-dependent if, and a for loop whose trip count depends on the thread.
% Checked against host loops; every output is poisoned first.

% seed 10.7's reduction, one partial sum per block into a kernel output and a vector
function [y : scalar] = __kernel__ tree(x : vec, part : vec, blkdim : int, blkpos : int, blkidx : int)
    s = shared(blkdim)
    s[blkpos] = x[blkidx * blkdim + blkpos]
    syncthreads
    bit = 1
    while bit < blkdim
        index = 2 * bit * blkpos
        if index + bit < blkdim
            s[index] = s[index] + s[index + bit]
            syncthreads
        endif
        bit *= 2
    endwhile
    if blkpos == 0
        part[blkidx] = s[0]
        y += s[0]
    endif
endfunction

% even threads wait at one barrier, odd ones at another: each reads its neighbour's value
function [] = __kernel__ branches(r : vec, blkdim : int, blkpos : int, blkidx : int)
    s = shared(blkdim)
    if mod(blkpos, 2) == 0
        s[blkpos] = blkpos
        syncthreads
        r[blkidx * blkdim + blkpos] = s[mod(blkpos + 1, blkdim)]
    else
        s[blkpos] = 10 * blkpos
        syncthreads
        r[blkidx * blkdim + blkpos] = s[blkpos - 1]
    endif
endfunction

% thread t counts 1 + mod(t, 2) times, a barrier after each count and one after the loop:
% by then every count is in, whichever barrier the others wait at
function [] = __kernel__ trips(r : vec, blkdim : int, blkpos : int, blkidx : int)
    s = shared(blkdim)
    for k = 0..mod(blkpos, 2)
        s[blkpos] = s[blkpos] + 1
        syncthreads
    endfor
    syncthreads
    total = 0.0
    for j = 0..blkdim-1
        total += s[j]
    endfor
    r[blkidx * blkdim + blkpos] = total
endfunction

B = 6
NB = 5
N = B * NB
x = zeros(N)
for i = 0..N-1
    x[i] = mod(i * 37, 101)
endfor
part = ones(NB) * -1
total = parallel_do([[N], [B]], x, part, tree)
all = 0
for b = 0..NB-1
    want = 0
    for t = 0..B-1
        want += x[b * B + t]
    endfor
    assert(part[b] == want)
    all += want
endfor
assert(total == all)

r = ones(N) * -1
parallel_do([[N], [B]], r, branches)
for i = 0..N-1
    t = mod(i, B)
    if mod(t, 2) == 0
        assert(r[i] == 10 * mod(t + 1, B))
    else
        assert(r[i] == t - 1)
    endif
endfor

r = ones(N) * -1
parallel_do([[N], [B]], r, trips)
for i = 0..N-1
    assert(r[i] == B / 2 * 3)
endfor

% one block of 64 threads: the tree's while loop runs six rounds
x = zeros(64)
for i = 0..63
    x[i] = i
endfor
part = ones(1) * -1
total = parallel_do([[64], [64]], x, part, tree)
assert(part[0] == 2016 && total == 2016)
print "fiber_barriers: ok"
