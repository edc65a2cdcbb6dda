% A launch of at most 512 threads without explicit block dimensions runs as one block
% (tests/README.md, semantics 4), whatever the shape: seed 10.9's kernel1 reduces over
% the whole launch [P, M, N] in shared memory and needs it. Above 512 threads each block
% dimension divides the data dimension.

function [] = __kernel__ shape3(rec : vec, blkdim : ivec3, blkcnt : ivec3, pos : ivec3)
    if pos[0] == 0 && pos[1] == 0 && pos[2] == 0
        for d = 0..2
            rec[d] = blkdim[d]
            rec[3 + d] = blkcnt[d]
        endfor
    endif
endfunction

% the sum over a whole launch through shared memory, as kernel1 does
function [] = __kernel__ block_sum(c : mat, blkdim : ivec3, blkpos : ivec3)
    bins = shared(blkdim)
    bins[blkpos] = blkpos[0] + 1
    syncthreads
    if blkpos[0] == 0
        s = 0.0
        for i = 0..blkdim[0]-1
            s += bins[i, blkpos[1], blkpos[2]]
        endfor
        c[blkpos[1], blkpos[2]] = s
    endif
endfunction

shapes = [[16, 4, 8], [8, 4, 8], [2, 3, 5], [1, 1, 512]]
for t = 0..3
    D = shapes[t, :]
    rec = ones(6) * -1
    parallel_do(D, rec, shape3)
    for d = 0..2
        assert(rec[d] == D[d] && rec[3 + d] == 1)
    endfor
    c = ones(D[1], D[2]) * -1
    parallel_do(D, c, block_sum)
    for m = 0..D[1]-1
        for n = 0..D[2]-1
            assert(c[m, n] == D[0] * (D[0] + 1) / 2)
        endfor
    endfor
endfor

% 16 x 4 x 9 = 576 threads: blocks again divide the data (at most 8 x 16 x 4)
rec = ones(6) * -1
parallel_do([16, 4, 9], rec, shape3)
assert(rec[0] * rec[3] == 16 && rec[1] * rec[4] == 4 && rec[2] * rec[5] == 9)
assert(rec[0] <= 8 && rec[2] <= 4)
print "kernel_one_block: ok"
