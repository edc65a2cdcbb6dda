% Matrix transposes (seed 002, Annexstein, chapter 5, the transpose assignment, written in
% Quasar): the serial kernel, one thread per row, and the two kernels the assignment asks
% for: one thread per element in K x K tiles, through global memory and through a shared
% K x (K+1) tile (the extra column avoids bank conflicts on a GPU). Each channel of the
% photograph is transposed by each kernel; OUTPUT is the transposed image from the
% shared-tile kernel, and the program checks that the four kernels agree.
% Run: oq run examples/transpose.q [INPUT [OUTPUT [SIZE]]]
% The tiled kernels need sides that are multiples of K = 8 (lib/gallery.q crops so).
import "lib/gallery.q"

K = 8

% to be launched on a single thread
function [] = __kernel__ transpose_serial(inp : mat, out : mat)
    for j = 0..size(inp, 0)-1
        for i = 0..size(inp, 1)-1
            out[i, j] = inp[j, i]
        endfor
    endfor
endfunction

% one thread per row of the output matrix
function [] = __kernel__ transpose_parallel_per_row(inp : mat, out : mat, pos : int)
    i = pos
    for j = 0..size(inp, 0)-1
        out[i, j] = inp[j, i]
    endfor
endfunction

% the tiled version: each thread finds its element from its block and its place in it
function [] = __kernel__ transpose_tiled(inp : mat, out : mat, pos : ivec2, blkidx : ivec2, _
        blkdim : ivec2, blkpos : ivec2)
    i = blkidx[0] * blkdim[0] + blkpos[0]
    j = blkidx[1] * blkdim[1] + blkpos[1]
    out[j, i] = inp[i, j]
endfunction

% through shared memory: read a tile row by row, write the transposed tile row by row
function [] = __kernel__ transpose_tiled_shared(inp : mat, out : mat, blkidx : ivec2, _
        blkdim : ivec2, blkpos : ivec2)
    tile = shared(blkdim[0], blkdim[1] + 1)
    tile[blkpos[0], blkpos[1]] = inp[blkidx[0] * blkdim[0] + blkpos[0], blkidx[1] * blkdim[1] + blkpos[1]]
    syncthreads
    out[blkidx[1] * blkdim[1] + blkpos[0], blkidx[0] * blkdim[0] + blkpos[1]] = tile[blkpos[1], blkpos[0]]
endfunction

function [] = main(input = "examples/data/chelsea.png", output = "build/examples/transpose.png", size_ = 0)
    x = load_image(input, size_)
    [R, C] = size(x, 0..1)
    y = zeros(C, R, 3)
    for ch = 0..2
        inp = x[:, :, ch]
        o1 = ones(C, R) * -1
        parallel_do(1, inp, o1, transpose_serial)
        o2 = ones(C, R) * -1
        parallel_do(C, inp, o2, transpose_parallel_per_row)
        o3 = ones(C, R) * -1
        parallel_do([[R, C], [K, K]], inp, o3, transpose_tiled)
        o4 = ones(C, R) * -1
        parallel_do([[R, C], [K, K]], inp, o4, transpose_tiled_shared)
        assert(sum(abs(o1 - o4)) == 0 && sum(abs(o2 - o4)) == 0 && sum(abs(o3 - o4)) == 0)
        y[:, :, ch] = o4
    endfor
    imwrite(output, y)
    print "transpose: wrote ", output
endfunction
