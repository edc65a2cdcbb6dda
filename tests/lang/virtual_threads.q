% Virtual threads (docs/cuda.md): on CUDA, barrier kernels whose barriers are statements of
% the body run each block with fewer GPU threads, each running several Quasar threads phase
% by phase; locals that live across a barrier become per-GPU-thread arrays. Every kernel
% here is checked against host loops (outputs poisoned first), on every target. tests/run.sh
% checks that the CUDA code of the seven kernels applies the transform.

% seed 002's transpose through a padded tile (square blocks; the padding column is zeroed,
% never written)
function [] = __kernel__ transpose(inp : mat, out : mat, blkidx : ivec2, blkdim : ivec2, blkpos : ivec2)
    tile = shared(blkdim[0], blkdim[1] + 1)
    tile[blkpos[0], blkpos[1]] = inp[blkidx[0] * blkdim[0] + blkpos[0], blkidx[1] * blkdim[1] + blkpos[1]]
    syncthreads
    out[blkidx[1] * blkdim[1] + blkpos[0], blkidx[0] * blkdim[0] + blkpos[1]] = tile[blkpos[1], blkpos[0]]
endfunction

% reads of the tile at transposed block positions: with square blocks every element read was
% stored by its owner (CUDA zeroes nothing); 16 x 8 blocks read the padding column (zero)
function [] = __kernel__ cross(x : mat, y : mat, pos : ivec2, blkpos : ivec2, blkdim : ivec2)
    t = shared(blkdim[0], blkdim[1] + 1)
    t[blkpos[0], blkpos[1]] = x[pos] + 1
    syncthreads
    y[pos] = t[blkpos[1], blkpos[0]]
endfunction

% locals living across one, two and three barriers (a scalar, an int, a vector), a loop
% inside a phase, another thread's element read after each barrier
function [] = __kernel__ mirror(x : mat, y : mat, pos : ivec2, blkpos : ivec2, blkdim : ivec2)
    t = shared(blkdim[0], blkdim[1])
    a = x[pos] * 2 + 1
    i = blkdim[0] - 1 - blkpos[0]
    v = [a, i, 3]
    t[blkpos[0], blkpos[1]] = a
    syncthreads
    b = t[i, blkpos[1]]
    s = 0
    for k = 0..blkpos[1]
        s += k
    endfor
    syncthreads
    t[blkpos[0], blkpos[1]] = b + v[0] + s
    syncthreads
    y[pos] = t[i, blkpos[1]] - v[0] + v[1] * 1000
endfunction

% rows past the block's box read zero: the tile has two more rows than the block
function [] = __kernel__ below(x : mat, y : mat, pos : ivec2, blkpos : ivec2, blkdim : ivec2)
    t = shared(blkdim[0] + 2, blkdim[1])
    t[blkpos[0], blkpos[1]] = x[pos] + 1
    syncthreads
    y[pos] = t[blkpos[0] + 2, blkpos[1]]
endfunction

% one dimension: a block-wide reversal
function [] = __kernel__ reverse1(x : vec, y : vec, pos : int, blkpos : int, blkdim : int)
    t = shared(blkdim)
    w = x[pos]
    t[blkpos] = w
    syncthreads
    y[pos] = t[blkdim - 1 - blkpos] * 10 + w
endfunction

% two vectors of 16 live across the barrier: fewer virtual threads per GPU thread (2, not 4)
function [] = __kernel__ heavy(x : vec, y : vec, pos : int, blkpos : int, blkdim : int)
    t = shared(blkdim)
    a = x[pos]
    u = [a, a+1, a+2, a+3, a+4, a+5, a+6, a+7, a+8, a+9, a+10, a+11, a+12, a+13, a+14, a+15]
    w = u * 2
    t[blkpos] = a
    syncthreads
    y[pos] = sum(u) + sum(w) + t[blkdim - 1 - blkpos]
endfunction

% three dimensions
function [] = __kernel__ swap3(x : cube, y : cube, pos : ivec3, blkpos : ivec3, blkdim : ivec3)
    t = shared(blkdim[0], blkdim[1], blkdim[2])
    c = pos[2] - pos[0]
    t[blkpos[0], blkpos[1], blkpos[2]] = x[pos]
    syncthreads
    y[pos] = t[blkdim[0] - 1 - blkpos[0], blkpos[1], blkpos[2]] + c
endfunction

function [] = check_transpose(m, n, k0, k1)
    inp = zeros(m, n)
    for i = 0..m-1
        for j = 0..n-1
            inp[i, j] = i * 1000 + j
        endfor
    endfor
    out = ones(n, m) * -1
    parallel_do([[ceil(m / k0) * k0, ceil(n / k1) * k1], [k0, k1]], inp, out, transpose)
    for i = 0..m-1
        for j = 0..n-1
            assert(out[j, i] == inp[i, j])
        endfor
    endfor
endfunction

check_transpose(64, 64, 32, 32)
check_transpose(70, 45, 16, 16)
check_transpose(96, 64, 32, 32)

m = 64
n = 96
x = zeros(m, n)
for i = 0..m-1
    for j = 0..n-1
        x[i, j] = mod(i * 37 + j * 11, 101)
    endfor
endfor
for b = 0..1
    k0 = b == 0 ? 32 : 16
    k1 = b == 0 ? 16 : 32
    y = ones(m, n) * -7
    parallel_do([[m, n], [k0, k1]], x, y, mirror)
    for i = 0..m-1
        for j = 0..n-1
            bi = mod(i, k0)
            bj = mod(j, k1)
            ri = i - bi + (k0 - 1 - bi)
            s = bj * (bj + 1) / 2
            % t after the second phase: t[r, c] = (x[r', c] * 2 + 1) + (x[r, c] * 2 + 1) + s(c)
            % with r' the mirror of r; y reads row ri of it
            e = (x[i, j] * 2 + 1) + (x[ri, j] * 2 + 1) + s - (x[i, j] * 2 + 1) + (k0 - 1 - bi) * 1000
            assert(y[i, j] == e)
        endfor
    endfor
endfor

for b = 0..2
    k0 = b == 1 ? 8 : 16
    k1 = b == 2 ? 8 : 16
    y = ones(m, n) * -7
    parallel_do([[m, n], [k0, k1]], x, y, cross)
    for i = 0..m-1
        for j = 0..n-1
            p0 = mod(i, k0)
            p1 = mod(j, k1)
            % t[p1, p0] holds x[.. + p1, .. + p0] + 1 where p1 < k0 and p0 < k1, else 0
            e = p1 < k0 && p0 < k1 ? x[i - p0 + p1, j - p1 + p0] + 1 : 0
            assert(y[i, j] == e)
        endfor
    endfor
endfor

y = ones(m, n) * -7
parallel_do([[m, n], [32, 16]], x, y, below)
for i = 0..m-1
    for j = 0..n-1
        e = mod(i, 32) < 30 ? x[i + 2, j] + 1 : 0
        assert(y[i, j] == e)
    endfor
endfor

x1 = zeros(2048)
for i = 0..2047
    x1[i] = mod(i * 13, 97)
endfor
for k = 256..256..512
    y1 = ones(2048) * -1
    parallel_do([[2048], [k]], x1, y1, reverse1)
    for i = 0..2047
        r = i - mod(i, k) + (k - 1 - mod(i, k))
        assert(y1[i] == x1[r] * 10 + x1[i])
    endfor
endfor

y1 = ones(2048) * -1
parallel_do([[2048], [256]], x1, y1, heavy)
for i = 0..2047
    r = i - mod(i, 256) + (255 - mod(i, 256))
    assert(y1[i] == 48 * x1[i] + 360 + x1[r])
endfor

x3 = zeros(8, 16, 8)
for i = 0..7
    for j = 0..15
        for l = 0..7
            x3[i, j, l] = i * 100 + j * 10 + l
        endfor
    endfor
endfor
y3 = ones(8, 16, 8) * -1
parallel_do([[8, 16, 8], [4, 8, 8]], x3, y3, swap3)
for i = 0..7
    for j = 0..15
        for l = 0..7
            ri = i - mod(i, 4) + (3 - mod(i, 4))
            assert(y3[i, j, l] == x3[ri, j, l] + l - i)
        endfor
    endfor
endfor
print "virtual_threads ok"
