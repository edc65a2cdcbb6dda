% Virtual blocks (docs/cuda.md): on CUDA a GPU block of virtual threads runs 4 or 2 of the
% launch's blocks when they divide the grid along dimension 0, each with its own shared
% memory. Seed 002's transpose (16x16 tiles: 124, 122 and 63 blocks along dimension 0, so
% 4, 2 and 1 per GPU block), a kernel of 32x16 blocks (at most 2) that reads the zeroed rows
% of its shared array, and 1-D and 3-D launches, each against a flat kernel without blocks
% computing the same; outputs poisoned first. tests/run.sh checks each kernel's most.
function [] = __kernel__ transpose(inp : mat, out : mat, blkidx : ivec2, blkdim : ivec2, blkpos : ivec2)
    tile = shared(blkdim[0], blkdim[1] + 1)
    tile[blkpos[0], blkpos[1]] = inp[blkidx[0] * blkdim[0] + blkpos[0], blkidx[1] * blkdim[1] + blkpos[1]]
    syncthreads
    out[blkidx[1] * blkdim[1] + blkpos[0], blkidx[0] * blkdim[0] + blkpos[1]] = tile[blkpos[1], blkpos[0]]
endfunction

function [] = __kernel__ transpose_ref(inp : mat, out : mat, pos : ivec2)
    out[pos] = inp[pos[1], pos[0]]
endfunction

% rows 0 and blkdim[0] + 1 of t are never stored: they read as the zeros of shared()
function [] = __kernel__ halo(x : mat, y : mat, pos : ivec2, blkpos : ivec2, blkdim : ivec2)
    t = shared(blkdim[0] + 2, blkdim[1])
    t[blkpos[0] + 1, blkpos[1]] = x[pos]
    syncthreads
    y[pos] = t[blkpos[0], blkpos[1]] + 10 * t[blkpos[0] + 2, blkpos[1]]
endfunction

function [] = __kernel__ halo_ref(x : mat, y : mat, k0 : int, pos : ivec2)
    r = mod(pos[0], k0)
    up = 0.0
    down = 0.0
    if r > 0
        up = x[pos[0] - 1, pos[1]]
    endif
    if r < k0 - 1
        down = x[pos[0] + 1, pos[1]]
    endif
    y[pos] = up + 10 * down
endfunction

function [] = __kernel__ reverse1(x : vec, y : vec, pos : int, blkpos : int, blkdim : int)
    t = shared(blkdim)
    t[blkpos] = x[pos]
    syncthreads
    y[pos] = t[blkdim - 1 - blkpos]
endfunction

function [] = __kernel__ reverse1_ref(x : vec, y : vec, k : int, pos : int)
    y[pos] = x[pos - mod(pos, k) + k - 1 - mod(pos, k)]
endfunction

function [] = __kernel__ reverse3(x : cube, y : cube, pos : ivec3, blkpos : ivec3, blkdim : ivec3)
    t = shared(blkdim[0], blkdim[1], blkdim[2])
    t[blkpos] = x[pos]
    syncthreads
    y[pos] = t[blkdim[0] - 1 - blkpos[0], blkpos[1], blkdim[2] - 1 - blkpos[2]]
endfunction

function [] = __kernel__ reverse3_ref(x : cube, y : cube, k : ivec3, pos : ivec3)
    r = [pos[0] - mod(pos[0], k[0]) + k[0] - 1 - mod(pos[0], k[0]), pos[1], pos[2] - mod(pos[2], k[2]) + k[2] - 1 - mod(pos[2], k[2])]
    y[pos] = x[r[0], r[1], r[2]]
endfunction

function [] = __kernel__ fill(x : mat, pos : ivec2)
    x[pos] = mod(pos[0] * 1031 + pos[1] * 7, 65536)
endfunction

total = 0
n = 48
for m = [1984, 1952, 1000]
    inp = zeros(m, n)
    parallel_do(size(inp), inp, fill)
    ref = zeros(n, m)
    parallel_do(size(ref), inp, ref, transpose_ref)
    out = ones(n, m) * -1
    parallel_do([[ceil(m / 16) * 16, ceil(n / 16) * 16], [16, 16]], inp, out, transpose)
    assert(max(abs(out - ref)) == 0)
    total += sum(out)
endfor

x = zeros(256, 64)
parallel_do(size(x), x, fill)
y = ones(256, 64) * -1
parallel_do([size(x), [32, 16]], x, y, halo)
e = ones(256, 64) * -2
parallel_do(size(x), x, e, 32, halo_ref)
assert(max(abs(y - e)) == 0)
total += sum(y)

v = zeros(256 * 40)
for i = 0..numel(v) - 1
    v[i] = mod(i * 37, 1001)
endfor
w = ones(numel(v)) * -1
parallel_do([[numel(v)], [256]], v, w, reverse1)
wr = ones(numel(v)) * -2
parallel_do(numel(v), v, wr, 256, reverse1_ref)
assert(max(abs(w - wr)) == 0)
total += sum(w .* (1..numel(w)))

c = zeros(64, 8, 12)
for i = 0..63
    for j = 0..7
        for k = 0..11
            c[i, j, k] = i * 100 + j * 10 + k
        endfor
    endfor
endfor
d = ones(64, 8, 12) * -1
parallel_do([size(c), [16, 4, 4]], c, d, reverse3)
dr = ones(64, 8, 12) * -2
parallel_do(size(c), c, dr, [16, 4, 4], reverse3_ref)
assert(max(abs(d - dr)) == 0)
total += sum(d)
print "virtual_blocks checksum ", total
