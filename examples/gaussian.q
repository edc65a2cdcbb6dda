% A separable Gaussian filter with shared memory (seed 001, "Shared memory and thread
% synchronization"): each block filters its rows horizontally into shared memory, with
% numel(fc) extra rows, synchronizes, then filters vertically from shared memory.
% Here fc = [1,4,6,4,1]/16 centred (n = 2): a binomial approximation of a Gaussian with
% sigma = 1. Pixels outside the image count as 0 (x is an unannotated cube).
% Run: oq run examples/gaussian.q [INPUT [OUTPUT [SIZE]]]
% As in the seed, the kernel indexes the channel with blkpos[2] (each block spans the 3
% channels, as default blocks of h x w x 3 do) and needs blkdim[0] >= numel(fc): the
% default block of an image whose height is a multiple of 8 has 8 rows.
import "lib/gallery.q"

function y = gaussian_filter(x, fc, n)
    function [] = __kernel__ kernel(x:cube,y:cube'unchecked,fc:vec'unchecked'hw_const,n:int,pos:ivec3,blkpos:ivec3,blkdim:ivec3)
        [M,N,P] = blkdim+[numel(fc),0,0]
        assert(M*N*P<=1024)  % put an upper bound on the amount of shared memory
        vals = shared(M,N,P) % allocate shared memory

        sum = 0.
        for i=0..numel(fc)-1   % step 1 - horizontal filter
            sum += x[pos[0]-n,pos[1]+i-n,blkpos[2]] * fc[i]
        endfor
        vals[blkpos] = sum  % store the result

        if blkpos[0]<numel(fc) % filter two extra rows (needed for vertical filtering
            sum = 0.
            for i=0..numel(fc)-1
                sum += x[pos[0]+blkdim[0]-n,pos[1]+i-n,blkpos[2]] * fc[i]
            endfor
            vals[blkpos+[blkdim[0],0,0]] = sum
        endif

        syncthreads(block)  % thread synchronization for the current block

        sum = 0.
        for i=0..numel(fc)-1   % step 2 - vertical filter
            sum += vals[blkpos[0]+i,blkpos[1],blkpos[2]] * fc[i]
        endfor
        y[pos] = sum
    endfunction
    y = uninit(size(x))
    parallel_do (size(y), x, y, fc, n, kernel)
endfunction

function [] = main(input = "examples/data/chelsea.png", output = "build/examples/gaussian.png", size_ = 0)
    x = load_image(input, size_)
    y = gaussian_filter(x, [1, 4, 6, 4, 1] / 16, 2)
    imwrite(output, y)
    print "gaussian: wrote ", output
endfunction
