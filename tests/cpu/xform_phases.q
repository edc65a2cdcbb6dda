% Kernels with barriers whose loops stride over the block (`for i = ind..cnt..e` with
% ind = pos2ind(blkdim, blkpos), cnt = prod(blkdim)): the CPU back end runs such a loop once
% per block over every i. Ranges longer and shorter than the block, 1-D and 3-D blocks, a
% body that reads its thread (not rewritten), the loop variable reused in a later phase.
% References are host loops; every value is an exact integer.

function [] = __kernel__ stride1(out : vec, pos : int, blkpos : int, blkdim : int)
    sh = shared(300)
    cnt = prod(blkdim)
    ind = pos2ind(blkdim, blkpos)
    for i = ind..cnt..299
        sh[i] = i * 3
    endfor
    syncthreads
    for i = ind..cnt..299
        out[i] += sh[i] + 1
    endfor
    syncthreads
    for i = ind..cnt..9
        out[300 + i] += ind      % reads its thread: stays a loop per thread
    endfor
endfunction

function [] = __kernel__ stride3(im : cube, y : vec, pos : ivec3, blkpos : ivec3, blkdim : ivec3)
    y_sh = shared(16)
    cnt = prod(blkdim)
    ind = pos2ind(blkdim, blkpos)
    syncthreads
    y_sh[mod(int(im[pos]), 16)] += 1
    syncthreads
    for i = ind..cnt..15
        y[i] += y_sh[i]
    endfor
endfunction

nb = 5
for B = [7, 64, 512]
    out = zeros(310)
    parallel_do([[nb * B], [B]], out, stride1)
    for i = 0..299
        assert(out[i] == nb * (i * 3 + 1))
    endfor
    for i = 0..9
        % thread i of each block adds i, and i + B, i + 2B... while below 10
        r = 0
        for t = 0..B-1
            if t <= i && mod(i - t, B) == 0
                r += t
            endif
        endfor
        assert(out[300 + i] == nb * r)
    endfor
endfor

im = zeros(12, 10, 3)
for m = 0..11
    for n = 0..9
        for k = 0..2
            im[m, n, k] = mod(m * 5 + n * 3 + k, 23)
        endfor
    endfor
endfor
y = zeros(16)
parallel_do([size(im), [4, 5, 3]], im, y, stride3)
yr = zeros(16)
for m = 0..11
    for n = 0..9
        for k = 0..2
            yr[mod(im[m, n, k], 16)] += 1
        endfor
    endfor
endfor
for b = 0..15
    assert(y[b] == yr[b])
endfor
print "ok"
