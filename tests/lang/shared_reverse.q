% Shared memory and syncthreads: each block loads its part of x into shared memory, waits,
% and writes it back reversed. Without the barrier a thread would read a shared element
% that its owner has not written yet.

function [] = __kernel__ block_reverse(x : vec, y : vec, pos : int, blkpos : int, _
        blkdim : int, blkidx : int)
    s = shared(blkdim)
    s[blkpos] = x[pos]
    syncthreads
    y[pos] = s[blkdim - 1 - blkpos]
endfunction

% the same with explicit 2-D blocks: each block reverses its tile in both directions
function [] = __kernel__ tile_reverse(x : mat, y : mat, pos : ivec2, blkpos : ivec2, _
        blkdim : ivec2)
    t = shared(blkdim[0], blkdim[1])
    t[blkpos[0], blkpos[1]] = x[pos]
    syncthreads(block)
    y[pos] = t[blkdim[0] - 1 - blkpos[0], blkdim[1] - 1 - blkpos[1]]
endfunction

% 1-D: 1024 threads run as two blocks of 512, 96 threads as one block of 96
for N = [1024, 96]
    B = N == 1024 ? 512 : 96
    x = zeros(N)
    for i = 0..N-1
        x[i] = 3 * i + 1
    endfor
    y = ones(N) * -1
    parallel_do(N, x, y, block_reverse)
    for i = 0..N-1
        b = int(i / B)
        assert(y[i] == x[b * B + (B - 1 - mod(i, B))])
    endfor
endfor

% 2-D, blocks of 4x8 over a 12x16 matrix
R = 12
C = 16
x = reshape(0..R*C-1, [R, C])
y = ones(R, C) * -1
parallel_do([[R, C], [4, 8]], x, y, tile_reverse)
for m = 0..R-1
    for n = 0..C-1
        bm = int(m / 4) * 4
        bn = int(n / 8) * 8
        assert(y[m, n] == x[bm + 3 - (m - bm), bn + 7 - (n - bn)])
    endfor
endfor

% shared_zeros starts at zero; each block counts its threads into shared memory
function [] = __kernel__ count_threads(c : vec, blkpos : int, blkidx : int)
    z = shared_zeros(1)
    z[0] += 1
    syncthreads
    if blkpos == 0
        c[blkidx] = z[0]
    endif
endfunction
c = ones(4) * -1
parallel_do([[256], [64]], c, count_threads)
for b = 0..3
    assert(c[b] == 64)
endfor
print "shared_reverse: ok"
