% Only for --target cuda (tests/gpu.sh runs this folder): seed 000's hist_shared as
% persistent blocks (docs/cuda.md) on launches of many more blocks than the GPU holds, so
% that every resident block runs many blocks' bodies. References: a plain kernel's
% histogram, and the exact count of a constant image past 2^24 (the oracle's per-block float
% additions of 384 are exact there; the shadow keeps the coarsened sums exact too).
function [] = __kernel__ hist_shared(im : cube, y : vec, pos : ivec3, blkpos : ivec3, blkdim : ivec3)
    nthreads = 4
    y_sh : mat = shared(256,4)
    cnt = prod(blkdim)
    ind = pos2ind(blkdim, blkpos)
    for i = ind..cnt..numel(y_sh)-1
        y_sh[ind2pos(size(y_sh), i)] = 0.0
    endfor
    syncthreads
    v = im[pos]
    threadid = mod(ind,nthreads)
    y_sh[v, threadid] += 1
    syncthreads
    for i = ind..cnt..256-1
        y[i] += sum(y_sh[i,0..3])
    endfor
endfunction

function [] = __kernel__ hist_plain(im : cube, y : vec, pos : ivec3)
    y[im[pos]] += 1
endfunction

function [] = __kernel__ fill(im : cube, pos : ivec3)
    im[pos] = mod(pos[0] * 7 + pos[1] * 3 + pos[2] * 101 + int(pos[1] / 17), 256)
endfunction

im = zeros(1000, 1024, 3)
parallel_do(size(im), im, fill)
ref = zeros(256)
parallel_do(size(im), im, ref, hist_plain)
y = ones(256) * 0
parallel_do(size(im), im, y, hist_shared)
for b = 0..255
    assert(y[b] == ref[b])
endfor
y = zeros(256)
parallel_do([size(im), [2, 8, 3]], im, y, hist_shared)   % 64000 blocks of 48 threads
for b = 0..255
    assert(y[b] == ref[b])
endfor

% Runs of every length mod the 8 bodies of a step (the run's last step is partial) and
% counts added to a histogram that does not start at zero: h x 1000 x 3 images, h of 1 to
% 700 (31 to 22000 blocks: fewer and many more than the resident ones).
for h = [1, 3, 7, 22, 45, 94, 137, 251, 366, 487, 700]
    im = zeros(h, 1000, 3)
    parallel_do(size(im), im, fill)
    ref = ones(256) * 0.5
    parallel_do(size(im), im, ref, hist_plain)
    y = ones(256) * 0.5
    parallel_do(size(im), im, y, hist_shared)
    for b = 0..255
        assert(y[b] == ref[b])
    endfor
endfor

% Rows of 3003 floats (blocks of 39 threads: one Quasar thread per GPU thread), and 4 Quasar
% threads per GPU thread (vector-loads(4)) where blocks' rows of 2 threads break a GPU
% thread's 4 apart in memory (loaded one by one, never as one float4)
im = zeros(37, 1001, 3)
parallel_do(size(im), im, fill)
ref = zeros(256)
parallel_do(size(im), im, ref, hist_plain)
y = zeros(256)
parallel_do(size(im), im, y, hist_shared)
for b = 0..255
    assert(y[b] == ref[b])
endfor
im = zeros(1024, 64, 1)
parallel_do(size(im), im, fill)
ref = zeros(256)
parallel_do(size(im), im, ref, hist_plain)
y = zeros(256)
parallel_do([size(im), [64, 2, 1]], im, y, hist_shared)
for b = 0..255
    assert(y[b] == ref[b])
endfor

c = ones(4096, 4096, 3) * 128
y = zeros(256)
parallel_do(size(c), c, y, hist_shared)
assert(y[128] == 4096 * 4096 * 3)
assert(sum(y) == 4096 * 4096 * 3)
print "persistent ok"
