% bench/xform/gpu.q: the GPU side of bench/xform/run.sh. Histograms of seed 000 (hist_naive as
% a kernel, hist_auto: the same kernel with seed 000's attributes, hist_shared as written)
% on H x W x 3 float images of three kinds (0: smooth "natural-like", 1: uniform
% pseudo-random, 2: constant), sums of 2^26 and 2^28 floats, and seed 001's sum1/sum2 pair.
% Each repetition prints "LABEL: T ms" (toc); with OQ_DEV_CUDA_KTIME=1 oq also prints each
% kernel's own time. The histograms of the three methods must be equal.

function [] = __kernel__ fill(im : cube, kind : int, pos : ivec3)
    W = size(im, 1)
    i = (pos[0] * W + pos[1]) * 3 + pos[2]
    if kind == 0
        v = 128 + 100 * sin(pos[0] * 0.0011 + pos[2]) * cos(pos[1] * 0.0007) + 20 * sin(pos[0] * 0.05 + pos[1] * 0.03)
        im[pos] = floor(max(0, min(255, v)))
    elseif kind == 1
        x = mod(i, 65521)
        im[pos] = mod(mod(x * 32749 + mod(int(i / 65521), 65521) * 7, 65521), 256)
    else
        im[pos] = 77
    endif
endfunction

function [] = __kernel__ hist_naive_k(im : cube, y : vec, pos : ivec3)
    v = im[pos]
    y[v] += 1
endfunction

function [] = __kernel__ hist_auto_k(im : cube, y : vec'unchecked, pos : ivec3)
    !kernel_transform enable="sharedmemcaching"
    !kernel_arg name=y; type="inout"; access="shared"; op="+="; cache_slices=y[:]; numel=256
    !kernel_tiling dims=[128,256,1]; mode="global"; target="gpu"
    v = im[pos]
    y[v] += 1
endfunction

% hist_auto with dims=auto: the run-time's grid (the literal [128,256,1] above runs so too on
% this streaming kernel; OQ_DEV_TILE_LITERAL=1 makes 32768 threads sweep tiles of that shape)
function [] = __kernel__ hist_autogrid_k(im : cube, y : vec'unchecked, pos : ivec3)
    !kernel_transform enable="sharedmemcaching"
    !kernel_arg name=y; type="inout"; access="shared"; op="+="; cache_slices=y[:]; numel=256
    !kernel_tiling dims=auto; mode="global"; target="gpu"
    v = im[pos]
    y[v] += 1
endfunction

function [] = __kernel__ hist_shared_k(im : cube, y : vec, pos : ivec3, blkpos : ivec3, blkdim : ivec3)
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

function [s : scalar] = __kernel__ ksum(x : vec, pos : int)
    s += x[pos]
endfunction

function [sum1 : scalar, sum2 : scalar] = __kernel__ moments(x : mat, pos : ivec2)
    sum1 += x[pos]
    sum2 += x[pos]^2
endfunction

function [] = __kernel__ fillv(x : vec, pos : int)
    x[pos] = mod(pos, 8) * 0.125
endfunction

% all: times the three methods; shared: only hist_shared (hist_naive's histogram, once, is
% its reference)
function [] = hists(h, w, kind, reps, which)
    im = zeros(h, w, 3)
    parallel_do(size(im), im, kind, fill)
    label = sprintf("%dx%dx3 kind %d", w, h, kind)
    nr = which == "all" ? reps : 1
    for r = 1..nr
        tic()
        y1 = zeros(256)
        parallel_do(size(im), im, y1, hist_naive_k)
        toc(sprintf("hist_naive %s", label))
    endfor
    y2 = y1
    y4 = y1
    for r = 1..(which == "all" ? reps : 0)
        tic()
        y2 = zeros(256)
        parallel_do(size(im), im, y2, hist_auto_k)
        toc(sprintf("hist_auto %s", label))
    endfor
    for r = 1..(which == "all" ? reps : 0)
        tic()
        y4 = zeros(256)
        parallel_do(size(im), im, y4, hist_autogrid_k)
        toc(sprintf("hist_autogrid %s", label))
    endfor
    for r = 1..reps
        tic()
        y3 = zeros(256)
        parallel_do(size(im), im, y3, hist_shared_k)
        toc(sprintf("hist_shared %s", label))
    endfor
    % counts above 2^24 are not exact in float (the methods may then differ in the last bits)
    if numel(im) < 16777216
        for b = 0..255
            assert(y1[b] == y2[b] && y1[b] == y3[b] && y1[b] == y4[b])
        endfor
    endif
    print "checksum ", label, " ", sum(y1), " ", sum(y2), " ", sum(y3), " ", y1[77]
endfunction

function [] = sums(n, reps)
    x = zeros(n)
    parallel_do(n, x, fillv)
    for r = 1..reps
        tic()
        s = parallel_do(n, x, ksum)
        toc(sprintf("sum 2^%d", round(log2(n))))
    endfor
    print "checksum sum ", n, " ", s, " expected ", n / 8 * 3.5
    X = reshape(x, [n / 4096, 4096])
    for r = 1..reps
        tic()
        [s1, s2] = parallel_do(size(X), X, moments)
        toc(sprintf("sum1sum2 2^%d", round(log2(n))))
    endfor
    print "checksum moments ", n, " ", s1, " ", s2
endfunction

% ARGS (bench/xform/run.sh passes its ARGS): "all" (the default) or "shared" (hist_shared's
% six images only, for tuning it)
function [] = main(which : string = "all")
    for kind = 0..2
        hists(1080, 1920, kind, 20, which)
    endfor
    for kind = 0..2
        hists(8192, 8192, kind, 10, which)
    endfor
    if which == "all"
        hists(512, 512, 0, 1000, which)
        sums(2^26, 20)
        sums(2^28, 10)
    endif
endfunction
