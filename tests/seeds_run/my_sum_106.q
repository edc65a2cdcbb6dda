% Seed 003, 10.6 Parallel reduction sum: my_sum, one block that loops over the vector and
% then reduces its bins in shared memory; thread 0 adds the result to the kernel output y.
% What the code computes: its reduction step tests `blkpos+index < blkdim` where the
% generic version below it tests `index + bit < blkdim`. For blkdim <= 4 that is the whole
% tree; for larger blocks some pairs are skipped (with blkdim = 8, bins[7] is never added).
% The driver compares with a host simulation of exactly this tree, and with the plain sum
% where the two agree.
% REPAIR: typographic apostrophes (U+2019, PDF damage) are straight quotes: vec'unchecked.

function [y : scalar] = __kernel__ my_sum(x : vec'unchecked,
blkpos : int, blkdim : int)
bins = shared(blkdim) % Note - we assume that blkdim is a power of two!
nblocks = (numel(x)+blkdim-1)/blkdim
% step 1 - parallel sum
val = 0.0
for m=0..nblocks-1
if blkpos + m*blkdim < numel(x)
val += x[blkpos + m*blkdim]
endif
endfor
bins[blkpos] = val
% step 2 - reduction
syncthreads
bit = 1
while bit < blkdim
index = 2*bit*blkpos
if blkpos+index<blkdim
bins[index] = bins[index] + bins[index + bit]
endif
syncthreads
bit *= 2
endwhile
% write output
if blkpos == 0
y += bins[0]
endif
endfunction

% ---- test driver ----
% The seed's algorithm on the host: B threads, each summing x[t], x[t+B], ...; then the
% reduction steps with the seed's condition, one step at a time.
function r = simulate(x, B)
    bins = zeros(B)
    for t = 0..B-1
        v = 0
        k = t
        while k < numel(x)
            v += x[k]
            k += B
        endwhile
        bins[t] = v
    endfor
    bit = 1
    while bit < B
        for t = 0..B-1
            index = 2 * bit * t
            if t + index < B
                bins[index] = bins[index] + bins[index + bit]
            endif
        endfor
        bit *= 2
    endwhile
    r = bins[0]
endfunction

N = 1000
x = zeros(N)
total = 0
for i = 0..N-1
    x[i] = 1 + mod(i * 7, 10)
    total += x[i]
endfor

% 4 threads (one block of 4): the full tree, the plain sum
assert(simulate(x, 4) == total)
assert(parallel_do(4, x, my_sum) == total)
assert(parallel_do(2, x, my_sum) == total)

% 16 and 256 threads (one block each): what the seed's tree gives
for B = [16, 256]
    ref = simulate(x, B)
    assert(ref < total)                 % some bins are left out
    assert(parallel_do(B, x, my_sum) == ref)
endfor
print "my_sum_106: ok"
