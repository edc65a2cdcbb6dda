% A per-block tree reduction in shared memory with syncthreads inside a loop: each block
% writes the sum of its part to c[blkidx]; the host adds the block sums.

function [] = __kernel__ block_sum(x : vec, c : vec, pos : int, blkpos : int, blkdim : int, _
        blkidx : int)
    cache = shared(blkdim)
    cache[blkpos] = x[pos]
    syncthreads
    offset = int(blkdim / 2)
    while offset > 0
        if blkpos < offset
            cache[blkpos] += cache[blkpos + offset]
        endif
        syncthreads
        offset = int(offset / 2)
    endwhile
    if blkpos == 0
        c[blkidx] = cache[0]
    endif
endfunction

N = 2048
x = zeros(N)
for i = 0..N-1
    x[i] = mod(i * 37, 101)
endfor
c = ones(4) * -1             % 2048 threads: four blocks of 512
parallel_do(N, x, c, block_sum)
for b = 0..3
    ref = 0
    for i = b * 512..(b + 1) * 512 - 1
        ref += x[i]
    endfor
    assert(c[b] == ref)
endfor
total = 0
for i = 0..N-1
    total += x[i]
endfor
assert(c[0] + c[1] + c[2] + c[3] == total)

% explicit smaller blocks: 16 blocks of 128
c = ones(16) * -1
parallel_do([[N], [128]], x, c, block_sum)
s = 0
for b = 0..15
    s += c[b]
endfor
assert(s == total)
print "shared_reduction: ok"
