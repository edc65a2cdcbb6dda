% Seed 000 (Tutorial 6: Advanced GPU programming): the seed's main() comparing hist_naive,
% hist_auto and hist_shared, with the parallel-loop transform doing what the seed says:
% hist_naive's plain loop and hist_auto's `!parallel for` loop run as kernels
% (tests/explain/hist_000.out), hist_profile expands through $target.
% The seed code verbatim (the stray `}` that ends the !kernel_tiling lines is in the seed).
% main() as in the seed except: a generated 40x24x3 image instead of imread("image.tif"),
% 4 runs instead of 1000, and the histograms kept (y1, y2, y3, y4) and checked against a
% plain count after the timings.

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

function y = hist_auto(im)
    y : vec'unchecked = zeros(256)
    !parallel for
    for m=0..size(im,0)-1
        for n=0..size(im,1)-1
            for k=0..size(im,2)-1
                !kernel_transform enable="sharedmemcaching"
                !kernel_arg name=y; type="inout"; access="shared"; op="+="; cache_slices=y[:]; numel=256
                !kernel_tiling dims=[128,256,1]; mode="global"; target="gpu"}               
                v = im[m,n,k]
                y[v] += 1
            endfor
        endfor
    endfor

endfunction

macro [] = hist_profile()
   if $target("gpu")
       !kernel_arg name=y; type="inout"; access="shared"; op="+="; cache_slices=y[:]; numel=256
       !kernel_transform enable="sharedmemcaching"
       !kernel_tiling dims=[128,256,1]; mode="global"; target="gpu"}
   endif
endmacro

function y = hist_auto_targetspecific(im)
    y : vec'unchecked = zeros(256)

    !parallel for
    for m=0..size(im,0)-1
        for n=0..size(im,1)-1
            for k=0..size(im,2)-1
                !hist_profile
                v = im[m,n,k]
                y[v] += 1
            endfor
        endfor
    endfor

endfunction    

% ---- test driver ----
function im = test_image()
    im = zeros(40, 24, 3)
    m = 0
    while m < 40
        for n = 0..23
            for k = 0..2
                im[m, n, k] = mod(7 * m * m + 13 * n + 101 * k + m * n, 256)
            endfor
        endfor
        m += 1
    endwhile
endfunction

% the reference: a count with a while loop (never parallelized)
function h = host_count(im)
    h = zeros(256)
    i = 0
    while i < numel(im)
        [m, n, k] = ind2pos(size(im), i)
        h[im[m, n, k]] = h[im[m, n, k]] + 1
        i += 1
    endwhile
endfunction

function [] = main()

    im = test_image()
    num_runs = 4

    tic()
    for run=0..num_runs-1
        y = hist_naive(im)
    endfor
    toc("Naive algorithm")
    print sum(y)/numel(im)
    y1 = y

    tic()
    for run=0..num_runs-1
        y = hist_auto(im)
    endfor
    toc("Auto algorithm")
    print sum(y)/numel(im)
    y2 = y

    tic()
    for run=0..num_runs-1
        y = hist_shared(im)
    endfor
    toc("Hand-written algorithm")
    y3 = y

    y4 = hist_auto_targetspecific(im)
    ref = host_count(im)
    b = 0
    while b < 256
        assert(y1[b] == ref[b] && y2[b] == ref[b] && y3[b] == ref[b] && y4[b] == ref[b])
        b += 1
    endwhile
    print "hist_main_000: ok"
endfunction
