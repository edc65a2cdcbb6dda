% bench/gpu/cases.q: the Quasar side of the GPU benchmarks. bench.cu appends one call of a
% run_* function below and runs the program in its own process (--target cuda, --profile);
% the device time of each kernel comes from the launcher's CUDA events, by kernel name.

% ---- histograms (seed 000) ----

% seed 000's hist_naive and hist_auto as the seed writes them: host loops that oq turns into
% kernels (named parloop:hist_naive and parloop:hist_auto)
function y = hist_naive(im : cube)
    y = zeros(256)
    for m=0..size(im,0)-1
        for n=0..size(im,1)-1
            for k=0..size(im,2)-1
                v = im[m,n,k]
                y[v] += 1
            endfor
        endfor
    endfor
endfunction

function y = hist_auto(im)
    y : vec'unchecked = zeros(256)
    !parallel for
    for m=0..size(im,0)-1
        for n=0..size(im,1)-1
            for k=0..size(im,2)-1
                !kernel_transform enable="sharedmemcaching"
                !kernel_arg name=y; type="inout"; access="shared"; op="+="; cache_slices=y[:]; numel=256
                !kernel_tiling dims=[128,256,1]; mode="global"; target="gpu"
                v = im[m,n,k]
                y[v] += 1
            endfor
        endfor
    endfor
endfunction

% seed 000's hist_shared: per-block histograms in shared memory, 4 copies per bin
function [] = __kernel__ k_hist_shared(im : cube, y : vec, pos : ivec3, blkpos : ivec3, blkdim : ivec3)
    nthreads = 4
    y_sh : mat = shared(256,4)
    % copy the value of y to the shared memory
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

% gradient: bench/hist.q's image (smooth ramps, every bin used); bench.cu computes the same
function [] = __kernel__ k_fill_gradient(im : cube, pos : ivec3)
    im[pos] = mod(pos[0] * 7 + pos[1] * 3 + pos[2] * 101 + int(pos[1] / 17), 256)
endfunction

% One of the three methods on im (1 hist_naive, 2 hist_shared, 4 hist_auto), reps more times
% after a first call unless that took more than a second (toc waits for the GPU). Returns
% the histogram.
function y = hist_with(im, method, reps)
    tic()
    y = hist_call(im, method)
    t = toc("first call")
    for r = 1..(t > 1000 ? 0 : reps)
        y = hist_call(im, method)
    endfor
endfunction

function y = hist_call(im, method)
    if method == 1
        y = hist_naive(im)
    elseif method == 4
        y = hist_auto(im)
    else
        y = zeros(256)
        parallel_do(size(im), im, y, k_hist_shared)
    endif
endfunction

% which: a sum of the methods' numbers; their histograms must be equal and count every
% element, except where one bin passes 2^24: a float count stops there in the oracle
% (hist_naive and hist_auto add 1 at a time), not where blocks add partial sums (hist_shared)
function [] = run_hist(h, w, dist, which, reps)
    im = zeros(h, w, 3)
    if dist == 0
        parallel_do(size(im), im, k_fill_gradient)
    elseif dist == 1
        im = floor(rand(h, w, 3) * 256)
    else
        im = ones(h, w, 3) * 128
    endif
    y0 = zeros(256)
    first = 1
    for method = [1, 2, 4]
        if and(which, method) != 0
            y = hist_with(im, method, reps)
            s = 0
            for b = 0..255
                assert(first == 1 || y[b] == y0[b] || (b == 128 && dist == 2))
                s += int(y[b])   % an int sum: a scalar one rounds to float past 2^24
            endfor
            big = method != 2 && dist == 2 && h * w * 3 > 16777216
            assert(s == (big ? 16777216 : h * w * 3))
            assert(dist != 2 || y[128] == s)
            y0 = y
            first = 0
        endif
    endfor
    print "hist ok"
endfunction

% ---- reduction: sum of n floats with a kernel output ----
function [y : scalar] = __kernel__ k_sum(x : vec'unchecked, pos : int)
    y += x[pos]
endfunction

function [] = __kernel__ k_fill_sum(x : vec, pos : int)
    x[pos] = mod(pos, 8) == 0   % n/8 ones: every partial sum is exact in float
endfunction

function [] = run_sum(n, reps)
    x = zeros(n)
    parallel_do(n, x, k_fill_sum)
    tic()
    s = parallel_do(n, x, k_sum)
    t = toc("first launch")
    for r = 1..(t > 1000 ? 0 : reps)
        s = parallel_do(n, x, k_sum)
    endfor
    assert(s == n / 8)
    print "sum ok"
endfunction

% ---- transpose: seed 002's tiled kernel through a shared K x (K+1) tile ----
function [] = __kernel__ k_transpose(inp : mat, out : mat, blkidx : ivec2, blkdim : ivec2, blkpos : ivec2)
    tile = shared(blkdim[0], blkdim[1] + 1)
    tile[blkpos[0], blkpos[1]] = inp[blkidx[0] * blkdim[0] + blkpos[0], blkidx[1] * blkdim[1] + blkpos[1]]
    syncthreads
    out[blkidx[1] * blkdim[1] + blkpos[0], blkidx[0] * blkdim[0] + blkpos[1]] = tile[blkpos[1], blkpos[0]]
endfunction

function [] = __kernel__ k_fill_mat(x : mat, pos : ivec2)
    x[pos] = mod(pos[0] * 1031 + pos[1], 65536)
endfunction

function [] = run_transpose(n, k, reps)
    inp = zeros(n, n)
    parallel_do(size(inp), inp, k_fill_mat)
    out = zeros(n, n)
    for r = 1..reps
        parallel_do([[n, n], [k, k]], inp, out, k_transpose)
    endfor
    for t = 0..99
        i = mod(t * 7919, n)
        j = mod(t * 104729 + 13, n)
        assert(out[j, i] == inp[i, j])
    endfor
    print "transpose ok"
endfunction

% ---- launch overhead: parallel_do of a trivial kernel, back to back ----
function [] = __kernel__ k_trivial(x : vec, pos : int)
    x[pos] = 1
endfunction

function [] = run_launch(reps)
    x = zeros(1)
    parallel_do(1, x, k_trivial)
    tic()
    for r = 1..reps
        parallel_do(1, x, k_trivial)
    endfor
    toc("launches")
    assert(x[0] == 1)
endfunction
