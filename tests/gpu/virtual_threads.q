% Virtual threads (docs/cuda.md) on launches of thousands of blocks: seed 002's transpose
% (32x32 and 16x16 tiles, a matrix that is not a multiple of them) and a kernel whose locals
% live across three barriers, against flat kernels without barriers (one thread per
% element, no shared memory) computing the same; outputs poisoned first. It prints a
% checksum, so that a run on --target cpu can be compared with one on --target cuda.
function [] = __kernel__ transpose(inp : mat, out : mat, blkidx : ivec2, blkdim : ivec2, blkpos : ivec2)
    tile = shared(blkdim[0], blkdim[1] + 1)
    tile[blkpos[0], blkpos[1]] = inp[blkidx[0] * blkdim[0] + blkpos[0], blkidx[1] * blkdim[1] + blkpos[1]]
    syncthreads
    out[blkidx[1] * blkdim[1] + blkpos[0], blkidx[0] * blkdim[0] + blkpos[1]] = tile[blkpos[1], blkpos[0]]
endfunction

function [] = __kernel__ transpose_ref(inp : mat, out : mat, pos : ivec2)
    out[pos] = inp[pos[1], pos[0]]
endfunction

function [] = __kernel__ mirror(x : mat, y : mat, pos : ivec2, blkpos : ivec2, blkdim : ivec2)
    t = shared(blkdim[0], blkdim[1])
    a = x[pos] * 2 + 1
    i = blkdim[0] - 1 - blkpos[0]
    v = [a, i, 3]
    t[blkpos[0], blkpos[1]] = a
    syncthreads
    b = t[i, blkpos[1]]
    syncthreads
    t[blkpos[0], blkpos[1]] = b + v[2]
    syncthreads
    y[pos] = t[i, blkpos[1]] - v[0] * 0.5 + v[1]
endfunction

% t[r, c] = a(mirror r, c) + 3 after the second barrier: y = a(r, c) + 3 - a(r, c) / 2 + i
function [] = __kernel__ mirror_ref(x : mat, y : mat, k0 : int, pos : ivec2)
    i = k0 - 1 - mod(pos[0], k0)
    y[pos] = (x[pos] * 2 + 1) * 0.5 + 3 + i
endfunction

function [] = __kernel__ fill(x : mat, pos : ivec2)
    x[pos] = mod(pos[0] * 1031 + pos[1] * 7, 65536)
endfunction

total = 0
m = 2000
n = 3000
inp = zeros(m, n)
parallel_do(size(inp), inp, fill)
ref = zeros(n, m)
parallel_do(size(ref), inp, ref, transpose_ref)
for k = 16..16..32
    out = ones(n, m) * -1
    parallel_do([[ceil(m / k) * k, ceil(n / k) * k], [k, k]], inp, out, transpose)
    assert(max(abs(out - ref)) == 0)
    total += sum(out)
endfor

x = zeros(1024, 1024)
parallel_do(size(x), x, fill)
for k = 16..16..32
    y = ones(1024, 1024) * -1
    parallel_do([size(x), [k, k]], x, y, mirror)
    e = zeros(1024, 1024)
    parallel_do(size(x), x, e, k, mirror_ref)
    assert(max(abs(y - e)) == 0)
    total += sum(y)
endfor
print "virtual_threads checksum ", total
