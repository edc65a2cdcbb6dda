% The histogram tutorial of Quasar (seed 000), on a photograph.
% Three implementations of a 256-bin histogram: the plain loop (the compiler parallelizes it
% and makes `+=` atomic), a hand-written kernel with a shared-memory histogram per block,
% and the loop with the shared-memory caching transform requested by code attributes.
% It times each, checks that they agree, prints the histogram ("histogram: [...]", 256
% counts over all samples of all channels) and draws it as a small plot image.
% Run: oq run examples/hist_000.q [INPUT [OUTPUT [SIZE [RUNS]]]]   (`make demo` runs it)
% hist_naive and hist_auto run their loops in the interpreter: the automatic loop
% parallelization and the shared-memory caching transform that the attributes ask for
% are not implemented yet (docs/STATUS.md), so they are much slower than in Quasar.
import "lib/gallery.q"

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

function [] = main(input = "examples/data/chelsea.png", output = "build/examples/hist_000.png", size_ = 0, num_runs = 3)
    im = load_image(input, size_)   % num_runs: the seed uses 1000

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
    print "histogram: ", y3
    imwrite(output, draw_histograms(reshape(y3, [1, 256]), 100))
    print "histogram plot written to ", output
endfunction
