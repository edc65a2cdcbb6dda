% Histogram benchmark (seed 000): hist_naive as a kernel (one thread per pixel, y[v] += 1),
% hist_shared (per-block histograms in shared memory), and seed 000's host-loop versions
% hist_loop (its hist_naive: a plain 3-deep loop) and hist_auto (`!parallel for` with the
% seed's attributes), which run as automatically generated kernels (parloop), on a
% 1920x1080x3 and an 8192x4096x3 image of values 0..255. Prints one line per repetition;
% bench/run.sh keeps the fastest.

function y = hist_naive(im : cube)
    function [] = __kernel__ kernel(im : cube, y : vec, pos : ivec3)
        v = im[pos]
        y[v] += 1
    endfunction
    y = zeros(256)
    parallel_do(size(im), im, y, kernel)
endfunction

function y = hist_shared(im : cube)
    function [] = __kernel__ kernel (im : cube, y : vec, pos : ivec3, blkpos : ivec3, blkdim : ivec3)
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

    y = zeros(256)
    parallel_do(size(im,0..2),im,y,kernel)
endfunction

% seed 000's hist_naive, verbatim but for the name
function y = hist_loop(im : cube)
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

% seed 000's hist_auto (without the stray `}` of its !kernel_tiling line)
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

function [] = __kernel__ fill(im : cube, pos : ivec3)
    im[pos] = mod(pos[0] * 7 + pos[1] * 3 + pos[2] * 101 + int(pos[1] / 17), 256)
endfunction

function [] = run(h, w, reps)
    im = zeros(h, w, 3)
    parallel_do(size(im), im, fill)
    y1 = hist_naive(im)
    y2 = hist_shared(im)
    y3 = hist_loop(im)
    y4 = hist_auto(im)
    assert(sum(y1) == numel(im) && sum(y2) == numel(im))
    for b = 0..255
        assert(y1[b] == y2[b] && y1[b] == y3[b] && y1[b] == y4[b])
    endfor
    for r = 1..reps
        tic()
        y1 = hist_naive(im)
        toc(sprintf("hist_naive %dx%dx3", w, h))
    endfor
    for r = 1..reps
        tic()
        y2 = hist_shared(im)
        toc(sprintf("hist_shared %dx%dx3", w, h))
    endfor
    for r = 1..reps
        tic()
        y3 = hist_loop(im)
        toc(sprintf("hist_loop %dx%dx3", w, h))
    endfor
    for r = 1..reps
        tic()
        y4 = hist_auto(im)
        toc(sprintf("hist_auto %dx%dx3", w, h))
    endfor
    assert(sum(y3) == numel(im) && sum(y4) == numel(im))
    print "checksum ", y1[0], " ", y1[255]
endfunction

run(1080, 1920, 7)
run(4096, 8192, 3)
