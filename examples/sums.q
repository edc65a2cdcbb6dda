% Parallel sums (seed 003, sections 10.6 and 10.7) of every sample of the photograph:
% my_sum (shared memory, a tree over the block), the generic parallel_reduction with a
% __device__ accumulator (sum and maximum), and r_sum (Kahan's compensated sum per
% thread, then the tree), which also replaces the built-in sum through a `reduction`.
% Prints one line per method; the total of 8-bit samples is an integer, so single
% precision may be off by a few units in the last place at large sizes.
% Run: oq run examples/sums.q [INPUT [SIZE]]
% DIFFERS from the seed, where the seed's code computes something else than its text:
% - my_sum: the seed tests `blkpos+index<blkdim`, which leaves partial sums out as soon
%   as a block has more than 4 threads; here it is `index+bit<blkdim` (as in 10.6's
%   parallel_reduction).
% - parallel_reduction: the seed ends with `y += bins[0]` in every thread, so the result
%   is blkdim times the sum; here only thread 0 adds it (as my_sum does).
import "lib/gallery.q"

% ---- 10.6: the parallel sum ----
function [y : scalar] = __kernel__ my_sum(x : vec'unchecked,
        blkpos : int, blkdim : int)
    bins = shared(blkdim) % Note - we assume that blkdim is a power of two!
    nblocks = (numel(x)+blkdim-1)/blkdim
    % step 1 - parallel sum
    val = 0.0
    for m=0..nblocks-1
        if blkpos + m*blkdim < numel(x)
            val += x[blkpos + m*blkdim]
        endif
    endfor
    bins[blkpos] = val
    % step 2 - reduction
    syncthreads
    bit = 1
    while bit < blkdim
        index = 2*bit*blkpos
        if index+bit<blkdim
            bins[index] = bins[index] + bins[index + bit]
        endif
        syncthreads
        bit *= 2
    endwhile
    % write output
    if blkpos == 0
        y += bins[0]
    endif
endfunction

% ---- 10.6: a generic parallel reduction ----
type accumulator : [__device__ (scalar, scalar) -> scalar]
function y : scalar = __kernel__ parallel_reduction(x : vec'unchecked,
        acc : accumulator, val : scalar, blkpos : int, blkdim : int)
    bins = shared(blkdim) % Note - we assume that blkdim is a power of two!
    nblocks = (numel(x)+blkdim-1)/blkdim
    for m=0..nblocks-1 % step 1 - parallel sum
        if blkpos + m*blkdim < numel(x)
            val = acc(val, x[blkpos + m*blkdim])
        endif
    endfor
    bins[blkpos] = val
    syncthreads % step 2 - reduction
    bit = 1
    while bit < blkdim
        index = 2*bit*blkpos
        if index + bit < blkdim
            bins[index] = acc(bins[index], bins[index + bit])
        endif
        syncthreads
        bit *= 2
    endwhile
    if blkpos == 0
        y += bins[0] % write output
    endif
endfunction
device_sum = __device__ (x : scalar, y : scalar) -> x + y
device_max = __device__ (x : scalar, y : scalar) -> max(x, y)

% ---- 10.7: a more accurate parallel sum ----
% Sum of all elements in the specified cube.
function y : scalar = r_sum(x : cube) concealed
    function [y : scalar] = __kernel__ r_sum_kernel(x : vec,
            nblocks : int, blkdim : int, blkpos : int)
        s = shared(blkdim)
        % step 1 - parallel sum
        sum = 0.0
        c = 0.0
        for n=0..nblocks-1
            if blkpos + n * blkdim < numel(x)
                % Kahan's sum reduction
                u = x[blkpos + n * blkdim] - c
                t = sum + u
                c = (t - sum) - u
                sum = t
            endif
        endfor
        s[blkpos] = sum
        % step 2 - reduction
        syncthreads
        % now sort all bins from large to small magnitudes
        bit = 1
        % use regular summing
        while bit<blkdim
            index=2*bit*blkpos
            if index+bit<blkdim
                s[index] = s[index] + s[index+bit]
                syncthreads
            endif
            bit *= 2
        endwhile
        if blkpos==0
            y += s[0]
        endif
    endfunction
    y = r_aggregator(x, r_sum_kernel)
endfunction
% Aggregator helper function (deals with the computation
% of the block sizes)
function z = r_aggregator(x, kernel) concealed
    N = numel(x)
    BLOCK_SIZE = prod(max_block_size(kernel, N))
    nblocks = int((N + BLOCK_SIZE-1) / BLOCK_SIZE)
    z = parallel_do([[1,BLOCK_SIZE],[1,BLOCK_SIZE]],x,nblocks,kernel)
endfunction
% Define a reduction to replace the summing function by our
% "improved" implementation.
reduction (x : cube) -> sum(x) = r_sum(x)

function [] = main(input = "examples/data/chelsea.png", size_ = 0)
    img = load_image(input, size_)
    x = reshape(img, [numel(img)])        % the kernels take a vector
    printf("samples: %d\n", numel(x))
    printf("my_sum: %.1f\n", parallel_do(256, x, my_sum))
    printf("parallel_reduction sum: %.1f\n", parallel_do(512, x, device_sum, 0, parallel_reduction))
    printf("parallel_reduction max: %.1f\n", parallel_do(512, x, device_max, 0, parallel_reduction))
    printf("r_sum: %.1f\n", r_sum(x))
    printf("sum (through the reduction): %.1f\n", sum(x))   % r_sum_kernel takes a vec
endfunction
