% The histogram tutorial of Quasar (seed 000), on a photograph.
% Three implementations of a 256-bin histogram: the plain loop (the compiler parallelizes it
% and makes `+=` atomic), a hand-written kernel with a shared-memory histogram per block,
% and the loop with the shared-memory caching transform requested by code attributes.
% It times each, checks that they agree, and draws the histogram as a small plot image.
% Run: build/oq run examples/histogram.q   (writes histogram_plot.png next to the run)

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
                !kernel_tiling dims=[128,256,1]; mode="global"; target="gpu"
                v = im[m,n,k]
                y[v] += 1
            endfor
        endfor
    endfor
endfunction

% A bar plot of h: height x 256 pixels, white bars on black.
function plot = draw_histogram(h : vec, height : int)
    plot = zeros(height, 256)
    top = max(h)
    parallel_do(size(plot), plot, h, top, __kernel__ (plot : mat, h : vec, top : scalar, pos : ivec2) -> _
        plot[pos] = (size(plot,0) - 1 - pos[0]) < h[pos[1]] / top * size(plot,0) ? 255 : 0)
endfunction

function [] = main()
    im = imread("examples/data/chelsea.png")
    num_runs = 3    % the seed uses 1000; the interpreter back end is slow

    tic()
    for run=0..num_runs-1
        y1 = hist_naive(im)
    endfor
    toc("Naive algorithm")
    print sum(y1)/numel(im)

    tic()
    for run=0..num_runs-1
        y2 = hist_auto(im)
    endfor
    toc("Auto algorithm")
    print sum(y2)/numel(im)

    tic()
    for run=0..num_runs-1
        y3 = hist_shared(im)
    endfor
    toc("Hand-written algorithm")

    for i=0..255
        assert(y1[i] == y2[i] && y1[i] == y3[i])
    endfor
    print "the three histograms agree; ", numel(im), " samples counted"
    imwrite("histogram_plot.png", draw_histogram(y3, 100))
    print "histogram plot written to histogram_plot.png"
endfunction
