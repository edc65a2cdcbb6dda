% Seed 001 (CUDA guide), Shared memory and thread synchronization: gaussian_filter, a
% separable filter whose horizontal pass goes to shared memory (with numel(fc) extra rows
% per block) and whose vertical pass reads it back; against a host loop with zero outside
% (x is an unannotated cube in the kernel).
% Like the seed, the kernel indexes the channel with blkpos[2], so the driver uses images
% of one channel; and its extra rows assume blkdim[0] >= numel(fc) - 1: the images here
% fit in one block.

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

% ---- test driver ----
function v = at(x, m, n)
    v = 0
    if m >= 0 && m < size(x, 0) && n >= 0 && n < size(x, 1)
        v = x[m, n, 0]
    endif
endfunction

function [] = check(x, y, fc, n)
    for m = 0..size(x, 0)-1
        for c = 0..size(x, 1)-1
            want = 0.0
            for i = 0..numel(fc)-1
                for j = 0..numel(fc)-1
                    want += fc[i] * fc[j] * at(x, m + i - n, c + j - n)
                endfor
            endfor
            assert(abs(y[m, c, 0] - want) < 1e-3 * (1 + abs(want)))
        endfor
    endfor
endfunction

x = zeros(12, 16, 1)
for m = 0..11
    for c = 0..15
        x[m, c, 0] = mod(7 * m + 11 * c + m * c, 64)
    endfor
endfor

% a 5-tap binomial filter centred with n = 2
fc = [1, 4, 6, 4, 1] / 16
y = gaussian_filter(x, fc, 2)
check(x, y, fc, 2)

% a 3-tap filter centred with n = 1, on a smaller image
x2 = x[0..5, 0..9, :]
fc3 = [0.25, 0.5, 0.25]
y2 = gaussian_filter(x2, fc3, 1)
check(x2, y2, fc3, 1)
print "gaussian_filter_001: ok"
