% The 3x3 local mean filter three ways (seed 003, section 10.5): non-separable, separable
% with an intermediate image, and separable with the intermediate rows in shared memory.
% All three write the same image: the mean of each 3x3 neighbourhood, zero outside the
% image (an unannotated cube read outside its bounds in a kernel gives 0).
% Run: oq run examples/filter3x3.q [INPUT [OUT_NONSEP [OUT_SEP [OUT_SHARED [SIZE]]]]]
% DIFFERS from the seed, to compute the 3x3 mean as the text says:
% - separable: the seed writes x[..]+x[pos]+x[..]*(1.0/9), which scales only the last
%   term; here the sum is in parentheses.
% - shared memory: the seed's horizontal pass reads rows pos[0] and pos[0]+blkdim[0], so
%   its mean covers rows m..m+2; here they are pos[0]-1 and pos[0]-1+blkdim[0] (rows m-1..m+1).
% Like the seed, the shared-memory kernel indexes the channel with blkpos[2]: it relies on
% each block spanning all 3 channels, which the default block shape of an h x w x 3
% launch does.
import "lib/gallery.q"

function [] = __kernel__ filter3x3_kernel_separable(x:cube,y:cube,pos:ivec3,
        blkpos:ivec3,blkdim:ivec3)
    [M,N,P] = blkdim+[2,0,0]
    assert(M<=10 && N<=16 && P<=3) % specify upper bounds for the amount of shared memory
    vals = shared(M, N, P) % shared memory

    sum = 0.
    for i=pos[1]-1..pos[1]+1 % step 1 - horizontal filter
        sum += x[pos[0]-1,i,blkpos[2]]
    endfor
    vals[blkpos] = sum % store the result
    if blkpos[0]<2 % filter two extra rows (needed for vertical filtering)
        sum = 0.
        for i=pos[1]-1..pos[1]+1
            sum += x[pos[0]-1+blkdim[0],i,blkpos[2]]
        endfor
        vals[blkpos+[blkdim[0],0,0]] = sum
    endif
    syncthreads
    sum = 0.
    for i=blkpos[0]..blkpos[0]+2 % step 2 - vertical filter
        sum += vals[i,blkpos[1],blkpos[2]]
    endfor
    y[pos] = sum*(1.0/9)
endfunction

function [] = main(input = "examples/data/chelsea.png", out_nonsep = "build/examples/filter_nonsep.png", _
        out_sep = "build/examples/filter_sep.png", out_shared = "build/examples/filter_shared.png", size_ = 0)
    x = load_image(input, size_)

    % 1. Non-separable implementation
    y = zeros(size(x))
    parallel_do(size(y),x,y,__kernel__ (x:cube,y:cube,pos:ivec3) -> _
        y[pos] = (x[pos+[-1,-1,0]]+x[pos+[-1,0,0]]+x[pos+[-1,1,0]] + _
                  x[pos+[ 0,-1,0]]+x[pos ]+x[pos+[0,1,0]] + _
                  x[pos+[ 1,-1,0]]+x[pos+[ 1,0,0]]+x[pos+[1,1,0]])*(1.0/9))
    imwrite(out_nonsep, y)

    % 2. Separable implementation
    y = zeros(size(x))
    tmp = zeros(size(x))
    parallel_do(size(y),x,tmp,__kernel__ (x:cube,y:cube,pos:ivec3) -> _
        y[pos] = x[pos+[-1,0,0]]+x[pos]+x[pos+[1,0,0]])
    parallel_do(size(x),tmp,y,__kernel__ (x:cube,y:cube,pos:ivec3) -> _
        y[pos] = (x[pos+[0,-1,0]]+x[pos]+x[pos+[0,1,0]])*(1.0/9))
    imwrite(out_sep, y)

    % 3. Separable implementation, using shared memory
    y = zeros(size(x))
    parallel_do(size(y),x,y,filter3x3_kernel_separable)
    imwrite(out_shared, y)
    print "filter3x3: wrote ", out_nonsep, ", ", out_sep, ", ", out_shared
endfunction
