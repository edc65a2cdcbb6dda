% The first builds of CUDA tiers (issue 24: emit_cuda.c, fast_schedule; docs/cuda.md "Cold
% start: tiers") compute what the optimized builds do, for each kind of kernel: a parallel
% loop whose `+=` counts (privatized when optimized, plain atomics in a first build), a
% kernel with a shared-memory histogram and barriers (persistent blocks, one body per step in
% a first build), host array expressions (a map of three arrays, streamed when optimized, and a sum) and a lambda. The image's values
% make every count known in closed form. On interp and cpu this checks the program itself;
% cudacheck compiles each kernel's first build with NVRTC too; tests/gpu.sh runs it on the GPU
% with first builds alone (OQ_DEV_CUDA_TIER_FAST=1) and optimized; tests/run.sh's tier block
% runs it over tools/cuda_stub.c with check = 0 (no kernel runs there) and wants every kernel
% launched first as its first build.
function y = hist_loop(im : mat)
    y = zeros(64)
    for m = 0..size(im, 0) - 1
        for n = 0..size(im, 1) - 1
            y[im[m, n]] += 1
        endfor
    endfor
endfunction

function y = hist_shared(im : mat)
    function [] = __kernel__ count(im : mat, y : vec, pos : ivec2, blkpos : ivec2, blkdim : ivec2)
        s : vec = shared(64)
        ind = pos2ind(blkdim, blkpos)
        cnt = prod(blkdim)
        for i = ind..cnt..63
            s[i] = 0.0
        endfor
        syncthreads
        s[im[pos]] += 1
        syncthreads
        for i = ind..cnt..63
            y[i] += s[i]
        endfor
    endfunction
    y = zeros(64)
    parallel_do(size(im), im, y, count)
endfunction

function [] = main(check = 1)
    H = 512
    W = 384
    im = zeros(H, W)
    parallel_do(size(im), im, __kernel__ (im : mat, pos : ivec2) -> im[pos] = mod(pos[0] * 384 + pos[1], 64))
    per = H * W / 64   % each value 0..63 appears this often
    y1 = hist_loop(im)
    y2 = hist_shared(im)
    im2 = im + 1
    im3 = im .* 2
    z = im .* 0.5 + im2 - im3   % three arrays: streamed when optimized
    t = sum(z)
    u = sum(y1)   % a vector: unrolled float4 loads when optimized
    if check
        for b = 0..63
            assert(y1[b] == per && y2[b] == per)
        endfor
        assert(t == H * W - 0.5 * per * 2016)   % z = 1 - im / 2; 0 + 1 + ... + 63 = 2016
        assert(u == H * W)
        assert(z[3, 5] == 1 - 0.5 * mod(3 * 384 + 5, 64))
    endif
    print "ok"
endfunction
