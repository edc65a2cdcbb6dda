% Seed 002 (Annexstein, ch. 5), assignment 5 written in Quasar: the tiled transpose with
% one thread per element in K x K blocks, through global memory and through a shared
% K x (K+1) tile, against the plain transpose and a host loop. The matrix is filled with
% sequential numbers, as in the seed's fill_matrix.

K = 8

% the tiled version: each thread finds its element from its block and its place in it
function [] = __kernel__ transpose_tiled(inp : mat, out : mat, pos : ivec2, blkidx : ivec2, _
        blkdim : ivec2, blkpos : ivec2)
    i = blkidx[0] * blkdim[0] + blkpos[0]
    j = blkidx[1] * blkdim[1] + blkpos[1]
    out[j, i] = inp[i, j]
endfunction

% through shared memory: read a tile row by row, write the transposed tile row by row
% (the tiles are square: K x K)
function [] = __kernel__ transpose_tiled_shared(inp : mat, out : mat, blkidx : ivec2, _
        blkdim : ivec2, blkpos : ivec2)
    tile = shared(blkdim[0], blkdim[1] + 1)
    tile[blkpos[0], blkpos[1]] = inp[blkidx[0] * blkdim[0] + blkpos[0], blkidx[1] * blkdim[1] + blkpos[1]]
    syncthreads
    % output tile (blkidx[1], blkidx[0]); this thread writes its row blkpos[0], column blkpos[1]
    out[blkidx[1] * blkdim[1] + blkpos[0], blkidx[0] * blkdim[0] + blkpos[1]] = tile[blkpos[1], blkpos[0]]
endfunction

for shape = 0..1
    R = shape == 0 ? 32 : 16
    C = shape == 0 ? 32 : 24
    inp = reshape(0..R*C-1, [R, C])
    gold = zeros(C, R)
    for j = 0..R-1
        for i = 0..C-1
            gold[i, j] = inp[j, i]
        endfor
    endfor
    t = transpose(inp)
    out1 = ones(C, R) * -1
    parallel_do([[R, C], [K, K]], inp, out1, transpose_tiled)
    out2 = ones(C, R) * -1
    parallel_do([[R, C], [K, K]], inp, out2, transpose_tiled_shared)
    for i = 0..C-1
        for j = 0..R-1
            assert(t[i, j] == gold[i, j])
            assert(out1[i, j] == gold[i, j])
            assert(out2[i, j] == gold[i, j])
        endfor
    endfor
endfor
print "transpose_002: ok"
