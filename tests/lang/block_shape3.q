% 3-D launches without explicit blocks: 8 x 16 x 4 at most (Quasar's default, which seed 003's
% filters size their shared tiles by), or 2 x 64 x 4 for kernels whose shared memory has
% literal sizes (long rows of h x w x channel images). Every back end takes the same shape.

function [] = __kernel__ fixed_shared(rec : vec, pos : ivec3, blkdim : ivec3, blkpos : ivec3)
    s = shared(4)
    if blkpos[0] == 0 && blkpos[1] == 0 && blkpos[2] == 0 && pos[0] == 0 && pos[1] == 0 && pos[2] == 0
        rec[0] = blkdim[0]
        rec[1] = blkdim[1]
        rec[2] = blkdim[2]
    endif
endfunction

function [] = __kernel__ tile_shared(rec : vec, pos : ivec3, blkdim : ivec3, blkpos : ivec3)
    s = shared(blkdim[0] + 2, blkdim[1] + 2)
    if pos[0] == 0 && pos[1] == 0 && pos[2] == 0
        rec[0] = blkdim[0]
        rec[1] = blkdim[1]
        rec[2] = blkdim[2]
    endif
endfunction

function y = __device__ twice(x : scalar)
    y = 2 * x
endfunction

function [] = __kernel__ calls_device(rec : vec, pos : ivec3, blkdim : ivec3)
    if pos[0] == 0 && pos[1] == 0 && pos[2] == 0
        rec[0] = twice(blkdim[0]) / 2
        rec[1] = blkdim[1]
        rec[2] = blkdim[2]
    endif
endfunction

function [] = __kernel__ no_blocks(rec : vec, pos : ivec3)
    if pos[0] == 0 && pos[1] == 0 && pos[2] == 0
        rec[0] = 1
    endif
endfunction

function [] = check(k, a, b, c)
    rec = ones(3) * -1
    parallel_do([64, 256, 3], rec, k)
    assert(rec[0] == a && rec[1] == b && rec[2] == c)
endfunction

check(fixed_shared, 2, 64, 3)
check(tile_shared, 8, 16, 3)
check(calls_device, 8, 16, 3)
rec = zeros(3)
parallel_do([64, 256, 3], rec, no_blocks)
assert(rec[0] == 1)
% the built-ins answer Quasar's default
b = max_block_size(fixed_shared, [64, 256, 3])
assert(b[0] == 8 && b[1] == 16 && b[2] == 3)
print "block_shape3: ok"
