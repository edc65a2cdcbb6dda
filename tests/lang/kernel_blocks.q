% blkpos, blkidx, blkdim, blkcnt, warpsize: each thread records them, and the host checks
% pos = blkidx .* blkdim + blkpos, 0 <= blkpos < blkdim, blkidx < blkcnt, and that the
% blocks tile the data exactly (each default block dimension divides the data dimension).
% With explicit block dimensions, blkdim is what was asked for.

function [] = __kernel__ record2(rec : cube, pos : ivec2, blkpos : ivec2, blkidx : ivec2, _
        blkdim : ivec2, blkcnt : ivec2, warpsize : int)
    for d = 0..1
        rec[pos[0], pos[1], d] = pos[d]
        rec[pos[0], pos[1], 2 + d] = blkpos[d]
        rec[pos[0], pos[1], 4 + d] = blkidx[d]
        rec[pos[0], pos[1], 6 + d] = blkdim[d]
        rec[pos[0], pos[1], 8 + d] = blkcnt[d]
    endfor
    rec[pos[0], pos[1], 10] = warpsize
endfunction

function [] = __kernel__ record3(rec : cube{4}, pos : ivec3, blkpos : ivec3, blkidx : ivec3, _
        blkdim : ivec3, blkcnt : ivec3)
    for d = 0..2
        rec[pos[0], pos[1], pos[2], d] = pos[d]
        rec[pos[0], pos[1], pos[2], 3 + d] = blkpos[d]
        rec[pos[0], pos[1], pos[2], 6 + d] = blkidx[d]
        rec[pos[0], pos[1], pos[2], 9 + d] = blkdim[d]
        rec[pos[0], pos[1], pos[2], 12 + d] = blkcnt[d]
    endfor
endfunction

% checks the records of a 2-D launch over dims; want_blk = [0, 0] when not imposed
function [] = check2(rec, dims, want_blk)
    bd0 = rec[0, 0, 6]
    bd1 = rec[0, 0, 7]
    assert(bd0 >= 1 && bd1 >= 1)
    assert(bd0 * bd1 <= 1024)
    if want_blk[0] > 0
        assert(bd0 == want_blk[0] && bd1 == want_blk[1])
    endif
    assert(mod(dims[0], bd0) == 0 && mod(dims[1], bd1) == 0)
    for m = 0..dims[0]-1
        for n = 0..dims[1]-1
            p = [m, n]
            for d = 0..1
                assert(rec[m, n, d] == p[d])                           % the thread ran
                assert(rec[m, n, 6 + d] == (d == 0 ? bd0 : bd1))        % one block shape
                assert(rec[m, n, 8 + d] == dims[d] / rec[m, n, 6 + d])  % the grid covers it
                assert(rec[m, n, 2 + d] >= 0 && rec[m, n, 2 + d] < rec[m, n, 6 + d])
                assert(rec[m, n, 4 + d] >= 0 && rec[m, n, 4 + d] < rec[m, n, 8 + d])
                assert(rec[m, n, 4 + d] * rec[m, n, 6 + d] + rec[m, n, 2 + d] == p[d])
            endfor
            assert(rec[m, n, 10] >= 1)
        endfor
    endfor
endfunction

dims = [24, 40]
rec = ones(dims[0], dims[1], 11) * -1
parallel_do(dims, rec, record2)
check2(rec, dims, [0, 0])

% explicit block dimensions: parallel_do([dims, blkdims], ...)
rec = ones(dims[0], dims[1], 11) * -1
parallel_do([dims, [8, 8]], rec, record2)
check2(rec, dims, [8, 8])

rec = ones(dims[0], dims[1], 11) * -1
parallel_do([[24, 40], [4, 20]], rec, record2)
check2(rec, dims, [4, 20])

rec = ones(dims[0], dims[1], 11) * -1
parallel_do([dims, [1, 1]], rec, record2)
check2(rec, dims, [1, 1])

% 3-D, default and explicit
D = [6, 10, 4]
blks = [[0, 0, 0], [3, 5, 2], [6, 2, 4]]
for t = 0..2
    blk = blks[t, :]
    rec = ones(D[0], D[1], D[2], 15) * -1
    if blk[0] == 0
        parallel_do(D, rec, record3)
    else
        parallel_do([D, blk], rec, record3)
    endif
    bd = [rec[0, 0, 0, 9], rec[0, 0, 0, 10], rec[0, 0, 0, 11]]
    if blk[0] > 0
        assert(bd[0] == blk[0] && bd[1] == blk[1] && bd[2] == blk[2])
    endif
    for i = 0..D[0]-1
        for j = 0..D[1]-1
            for k = 0..D[2]-1
                p = [i, j, k]
                for d = 0..2
                    assert(rec[i, j, k, d] == p[d])
                    assert(rec[i, j, k, 9 + d] == bd[d])
                    assert(rec[i, j, k, 12 + d] * bd[d] == D[d])
                    assert(rec[i, j, k, 3 + d] >= 0 && rec[i, j, k, 3 + d] < bd[d])
                    assert(rec[i, j, k, 6 + d] * bd[d] + rec[i, j, k, 3 + d] == p[d])
                endfor
            endfor
        endfor
    endfor
endfor

% a 1-D launch with explicit block size: [[N], [B]]
function [] = __kernel__ record1(bd : vec, bi : vec, bp : vec, pos : int, blkdim : int, _
        blkidx : int, blkpos : int)
    bd[pos] = blkdim
    bi[pos] = blkidx
    bp[pos] = blkpos
endfunction
N = 96
bd = ones(N) * -1
bi = ones(N) * -1
bp = ones(N) * -1
parallel_do([[N], [32]], bd, bi, bp, record1)
for i = 0..N-1
    assert(bd[i] == 32 && bi[i] == int(i / 32) && bp[i] == mod(i, 32))
endfor
print "kernel_blocks: ok"
