% Dense matrix multiplication (seed 003, section 10.9) with the seed's three algorithms:
% kernel1 (a parallel sum per element, for results of at most 4 rows), kernel2 (blocks
% of A and B in shared memory, as in the CUDA manual) and kernel3 (a plain loop).
% The product blurs the photograph: the gray image G (h x w) times the w x w matrix B
% with 1/3 on its three central diagonals averages each pixel with its left and right
% neighbours (zero outside). OUTPUT stacks three bands, each from another algorithm:
% rows 0..3 from G[0..3,:] * B (kernel1), rows 4..9 from G[4..9,:] * B (6 rows: kernel3),
% the rest from G[10..h-1,:] * B (kernel2).
% kernel1 reduces over its whole launch [P, M, N] in one block's shared memory, so it is
% right only while P*M*N threads fit in one block (here 512): the seed picks it for any
% M <= 4, whatever N. The kernel1 band is therefore computed 8 columns at a time
% (4 x 8 results, P = 16).
% Run: oq run examples/matmul.q [INPUT [OUTPUT [SIZE]]]
import "lib/gallery.q"

% Dense matrix multiplication
function C = dense_multiply(A : mat, B : mat)
    % Algorithm 1 - is well suited for calculating products of
    % large matrices that have a small matrix as end result.
    function [] = __kernel__ kernel1(a : mat'unchecked, b : mat'unchecked,
            c : mat'unchecked, blkdim : ivec3, blkpos : ivec3)
        n = size(a,1)
        bins = shared(blkdim)
        nblocks = int(ceil(n/blkdim[0]))
        % step 1 - parallel sum
        val = 0.0
        for m=0..nblocks-1
            if blkpos[0] + m*blkdim[0] < n % Note - omitting [0] gives error
                d = blkpos[0] + m*blkdim[0]
                val += a[blkpos[1],d] * b[d,blkpos[2]]
            endif
        endfor
        bins[blkpos] = val
        % step 2 - reduction
        syncthreads
        bit = 1
        while bit < blkdim[0]
            if mod(blkpos[0],bit*2) == 0
                bins[blkpos] += bins[blkpos + [bit,0,0]]
            endif
            syncthreads
            bit *= 2
        endwhile
        % write output
        if blkpos[0] == 0
            c[blkpos[1],blkpos[2]] = bins[0,blkpos[1],blkpos[2]]
        endif
    endfunction

    % Algorithm 2 - the block-based algorithm, as described in the CUDA manual
    function [] = __kernel__ kernel2(A : mat'unchecked, B : mat'unchecked,
            C : mat'unchecked, BLOCK_SIZE : int, pos : ivec2, blkpos : ivec2, blkdim : ivec2)
        % A[pos[0],m] * B[m,pos[1]]
        sA = shared(blkdim[0],BLOCK_SIZE)
        sB = shared(BLOCK_SIZE,blkdim[1])
        sum = 0.0
        for m = 0..BLOCK_SIZE..size(A,1)-1
            % Copy submatrix
            for n = blkpos[1]..blkdim[1]..BLOCK_SIZE-1
                sA[blkpos[0],n] = pos[0] < size(A,0) && m+n < size(A,1) ? A[pos[0],m+n] : 0.0
            endfor
            for n = blkpos[0]..blkdim[0]..BLOCK_SIZE-1
                sB[n,blkpos[1]] = m+n < size(B,0) && pos[1] < size(B,1) ? B[m+n,pos[1]] : 0.0
            endfor
            syncthreads
            % Compute the product of the two submatrices
            for n = 0..BLOCK_SIZE-1
                sum += sA[blkpos[0],n] * sB[n,blkpos[1]]
            endfor
            syncthreads
        endfor
        if pos[0] < size(C,0) && pos[1] < size(C,1)
            C[pos] = sum % Write the result
        endif
    endfunction

    % Algorithm 3 - the most straightforward algorithm
    function [] = __kernel__ kernel3(A : mat'unchecked, B : mat'unchecked,
            C : mat'unchecked, pos : ivec2)
        sum = 0.0
        for m=0..size(A,1)-1
            sum += A[pos[0],m]*B[m,pos[1]]
        endfor
        C[pos] = sum
    endfunction

    [M,N] = [size(A,0),size(B,1)]
    C = zeros(M,N)
    if M <= 4
        P = prevpow2(max_block_size(kernel1,[size(A,1),M*N])[0])
        parallel_do([P,M,N],A,B,C,kernel1)
    elseif size(A,1)>=8 && M >= 8
        P = min(32, prevpow2(size(A,1)))
        blk_size = max_block_size(kernel2,[32,32])
        sz = ceil(size(C,0..1) ./ blk_size) .* blk_size
        parallel_do([sz,blk_size],A,B,C,P,kernel2)
    else
        parallel_do(size(C),A,B,C,kernel3)
    endif
endfunction

function [] = main(input = "examples/data/chelsea.png", output = "build/examples/matmul.png", size_ = 0)
    G = to_gray(load_image(input, size_))
    [h, w] = size(G)
    B = zeros(w, w)
    parallel_do(size(B), B, __kernel__ (B : mat, pos : ivec2) -> _
        B[pos] = abs(pos[0] - pos[1]) <= 1 ? 1.0 / 3 : 0.0)
    out = zeros(h, w)
    for c = 0..8..w-1
        out[0..3, c..c+7] = dense_multiply(G[0..3, :], B[:, c..c+7])
    endfor
    out[4..9, :] = dense_multiply(G[4..9, :], B)
    out[10..h-1, :] = dense_multiply(G[10..h-1, :], B)
    imwrite(output, out)
    print "matmul: wrote ", output
endfunction
