% Shared tiles sized from the block (docs/cuda.md, "Shared memory and persistent blocks"):
% seed 002's transpose through a blkdim[0] x (blkdim[1]+1) tile, and
% a kernel that reads the tile's padding column, which no thread writes and which must read
% zero (on CUDA only those elements are zeroed, without a barrier of their own).
function [] = __kernel__ transpose(inp : mat, out : mat, blkidx : ivec2, blkdim : ivec2, blkpos : ivec2)
    tile = shared(blkdim[0], blkdim[1] + 1)
    tile[blkpos[0], blkpos[1]] = inp[blkidx[0] * blkdim[0] + blkpos[0], blkidx[1] * blkdim[1] + blkpos[1]]
    syncthreads
    out[blkidx[1] * blkdim[1] + blkpos[0], blkidx[0] * blkdim[0] + blkpos[1]] = tile[blkpos[1], blkpos[0]]
endfunction

function [] = __kernel__ shift_left(inp : mat, out : mat, pos : ivec2, blkdim : ivec2, blkpos : ivec2)
    tile = shared(blkdim[0], blkdim[1] + 1)
    tile[blkpos[0], blkpos[1]] = inp[pos] + 1
    syncthreads
    out[pos] = tile[blkpos[0], blkpos[1] + 1]
endfunction

n = 48
inp = zeros(n, n)
for i = 0..n-1
    for j = 0..n-1
        inp[i, j] = i * 1000 + j
    endfor
endfor
for k = 4..4..16
    out = ones(n, n) * -1
    parallel_do([[n, n], [k, k]], inp, out, transpose)
    for i = 0..n-1
        for j = 0..n-1
            assert(out[j, i] == inp[i, j])
        endfor
    endfor
endfor

% 8 x 16 blocks: the last column of each block reads the padding
out = ones(n, n) * -1
parallel_do([[n, n], [8, 16]], inp, out, shift_left)
for i = 0..n-1
    for j = 0..n-1
        v = mod(j, 16) == 15 ? 0 : inp[i, j + 1] + 1
        assert(out[i, j] == v)
    endfor
endfor
print "shared_tiles ok"
