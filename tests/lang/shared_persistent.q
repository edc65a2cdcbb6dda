% Kernels with a block-shared accumulator (seed 000's hist_shared shape): prologue fills it,
% syncthreads, the body adds to it, syncthreads, the epilogue adds it into global memory.
% On CUDA the first two are run as persistent blocks (docs/cuda.md, "Persistent blocks");
% the others break one of the conditions and must not be (tests/run.sh checks the emitted
% transforms). Every result is compared with a host loop; outputs start poisoned where the
% kernel overwrites them.

% seed 000's hist_shared, as written there
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

% transformed, the epilogue's loop adds a sum of counts written out term by term into a
% shorter array (bins 200 to 255 fall outside it: dropped); on CUDA a packed merge
function [] = __kernel__ hist_short(im : cube, y : vec, pos : ivec3, blkpos : ivec3, blkdim : ivec3)
    y_sh : mat = shared(256,4)
    cnt = prod(blkdim)
    ind = pos2ind(blkdim, blkpos)
    for i = ind..cnt..numel(y_sh)-1
        y_sh[ind2pos(size(y_sh), i)] = 0.0
    endfor
    syncthreads
    y_sh[im[pos], mod(ind, 4)] += 1
    syncthreads
    for i = ind..cnt..256-1
        y[i] += y_sh[i,0] + y_sh[i,1] + sum(y_sh[i,2..3])
    endfor
endfunction

% transformed, the epilogue's loop adds half the counts: not a whole number, so on CUDA not
% a packed merge (its loop still spreads over the GPU block)
function [] = __kernel__ hist_half(im : cube, y : vec, pos : ivec3, blkpos : ivec3, blkdim : ivec3)
    y_sh : mat = shared(256,4)
    cnt = prod(blkdim)
    ind = pos2ind(blkdim, blkpos)
    for i = ind..cnt..numel(y_sh)-1
        y_sh[ind2pos(size(y_sh), i)] = 0.0
    endfor
    syncthreads
    y_sh[im[pos], mod(ind, 4)] += 1
    syncthreads
    for i = ind..cnt..256-1
        y[i] += sum(y_sh[i,0..3]) * 0.5
    endfor
endfunction

% weighted: the body adds data, the epilogue a multiple of a difference
function [] = __kernel__ weighted(im : mat, w : mat, y : vec, pos : ivec2, blkpos : ivec2, blkdim : ivec2)
    acc = shared(2, 16)
    syncthreads
    b = mod(im[pos], 16)
    acc[0, b] += w[pos]
    acc[1, b] += 1
    syncthreads
    t = pos2ind(blkdim, blkpos)
    if t < 16
        y[t] += 2 * (acc[0, t] - acc[1, t])
    endif
endfunction

% transformed, counts of 3 (held as unsigned counts on both back ends), read back through a
% linear epilogue into an array that does not start at zero
function [] = __kernel__ counts_three(im : mat, y : vec, pos : ivec2, blkpos : ivec2, blkdim : ivec2)
    acc = shared(16)
    syncthreads
    acc[mod(im[pos], 16)] += 3
    syncthreads
    t = pos2ind(blkdim, blkpos)
    if t < 16
        y[t] += acc[t] / 3 + acc[t] * 0.5
    endif
endfunction

% not transformed: the epilogue overwrites (=), per block
function [] = __kernel__ per_block(im : mat, y : mat, blkidx : ivec2, pos : ivec2, blkpos : ivec2, blkdim : ivec2)
    acc = shared(16)
    syncthreads
    acc[mod(im[pos], 16)] += 1
    syncthreads
    t = pos2ind(blkdim, blkpos)
    if t < 16
        y[blkidx[0] * 100 + blkidx[1], t] = acc[t]
    endif
endfunction

% not transformed: the body reads the accumulator
function [] = __kernel__ body_reads(im : mat, y : vec, pos : ivec2, blkpos : ivec2, blkdim : ivec2)
    acc = shared(16)
    syncthreads
    b = mod(im[pos], 16)
    acc[b] += 1 + 0 * acc[b]
    syncthreads
    t = pos2ind(blkdim, blkpos)
    if t < 16
        y[t] += acc[t]
    endif
endfunction

% not transformed: the epilogue adds a constant per block (affine, not linear)
function [] = __kernel__ affine(im : mat, y : vec, pos : ivec2, blkpos : ivec2, blkdim : ivec2)
    acc = shared(16)
    syncthreads
    acc[mod(im[pos], 16)] += 1
    syncthreads
    t = pos2ind(blkdim, blkpos)
    if t < 16
        y[t] += acc[t] + 1
    endif
endfunction

% not transformed: the accumulator does not start at zero
function [] = __kernel__ nonzero_start(im : mat, y : vec, pos : ivec2, blkpos : ivec2, blkdim : ivec2)
    acc = shared(16)
    t = pos2ind(blkdim, blkpos)
    if t < 16
        acc[t] = 1
    endif
    syncthreads
    acc[mod(im[pos], 16)] += 1
    syncthreads
    if t < 16
        y[t] += acc[t]
    endif
endfunction

H = 48
W = 40
im = zeros(H, W, 3)
for i = 0..H-1
    for j = 0..W-1
        for c = 0..2
            im[i, j, c] = mod(i * 7 + j * 3 + c * 101 + floor(j / 17), 256)
        endfor
    endfor
endfor
ref = zeros(256)
for i = 0..H-1
    for j = 0..W-1
        for c = 0..2
            ref[im[i, j, c]] += 1
        endfor
    endfor
endfor
y = zeros(256)
parallel_do([[H, W, 3], [8, 8, 3]], im, y, hist_shared)
for b = 0..255
    assert(y[b] == ref[b])
endfor
y = zeros(256)
parallel_do(size(im), im, y, hist_shared)   % the oracle's blocks
for b = 0..255
    assert(y[b] == ref[b])
endfor

y = ones(200) * 0.5
parallel_do([[H, W, 3], [8, 8, 3]], im, y, hist_short)
for b = 0..199
    assert(y[b] == 0.5 + ref[b])
endfor
y = ones(256) * -3
parallel_do([[H, W, 3], [8, 8, 3]], im, y, hist_half)
for b = 0..255
    assert(y[b] == -3 + 0.5 * ref[b])
endfor

m = zeros(64, 48)
w = zeros(64, 48)
for i = 0..63
    for j = 0..47
        m[i, j] = mod(i * 5 + j * 11, 23)
        w[i, j] = mod(i + 2 * j, 7)
    endfor
endfor
cnt16 = zeros(16)
wsum = zeros(16)
for i = 0..63
    for j = 0..47
        b = mod(m[i, j], 16)
        cnt16[b] += 1
        wsum[b] += w[i, j]
    endfor
endfor
y = zeros(16)
parallel_do([[64, 48], [4, 8]], m, w, y, weighted)
for b = 0..15
    assert(y[b] == 2 * (wsum[b] - cnt16[b]))
endfor

y = ones(16) * 0.25
parallel_do([[64, 48], [8, 4]], m, y, counts_three)
for b = 0..15
    assert(y[b] == 0.25 + 2.5 * cnt16[b])
endfor

nb = [64 / 8, 48 / 4]
yb = ones(1000, 16) * -7
parallel_do([[64, 48], [8, 4]], m, yb, per_block)
for bi = 0..nb[0]-1
    for bj = 0..nb[1]-1
        c = zeros(16)
        for i = 0..7
            for j = 0..3
                c[mod(m[bi * 8 + i, bj * 4 + j], 16)] += 1
            endfor
        endfor
        for b = 0..15
            assert(yb[bi * 100 + bj, b] == c[b])
        endfor
    endfor
endfor

y = zeros(16)
parallel_do([[64, 48], [8, 4]], m, y, body_reads)
for b = 0..15
    assert(y[b] == cnt16[b])
endfor
y = zeros(16)
parallel_do([[64, 48], [8, 4]], m, y, affine)
for b = 0..15
    assert(y[b] == cnt16[b] + nb[0] * nb[1])
endfor
y = zeros(16)
parallel_do([[64, 48], [8, 4]], m, y, nonzero_start)
for b = 0..15
    assert(y[b] == cnt16[b] + nb[0] * nb[1])
endfor
print "shared_persistent ok"
