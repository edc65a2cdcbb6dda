% Seed 003, 10.9 Matrix multiplication: dense_multiply chooses one of three kernels; the
% driver picks sizes so that each branch runs (M <= 4: kernel1, the parallel sum over the
% inner dimension; M >= 8 and size(A,1) >= 8: kernel2, shared-memory tiles; otherwise
% kernel3) and compares with a triple loop.
% REPAIR: typographic apostrophes (U+2019, PDF damage) are straight quotes: mat'unchecked.
% The parameter lists break inside the parentheses, as in the seed.

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

% ---- test driver ----
function C = triple_loop(A, B)
    C = zeros(size(A, 0), size(B, 1))
    for i = 0..size(A, 0)-1
        for j = 0..size(B, 1)-1
            acc = 0.0
            for k = 0..size(A, 1)-1
                acc += A[i, k] * B[k, j]
            endfor
            C[i, j] = acc
        endfor
    endfor
endfunction

function A = test_matrix(r, c, seed)
    A = zeros(r, c)
    for i = 0..r-1
        for j = 0..c-1
            A[i, j] = mod(seed * i + 3 * j + i * j, 9) - 4
        endfor
    endfor
endfunction

% [rows of A, inner size, columns of B]: kernel1 (M = 3), kernel2 (M = 10, inner 12;
% M = 20 with an inner size 40 larger than one 32-wide tile), kernel3 (M = 6)
cases = [[3, 40, 2], [10, 12, 9], [20, 40, 18], [6, 5, 7], [1, 9, 1]]
for t = 0..size(cases, 0)-1
    A = test_matrix(cases[t, 0], cases[t, 1], 5 + t)
    B = test_matrix(cases[t, 1], cases[t, 2], 7 + 2 * t)
    C = dense_multiply(A, B)
    R = triple_loop(A, B)
    assert(size(C, 0) == size(R, 0) && size(C, 1) == size(R, 1))
    for i = 0..size(R, 0)-1
        for j = 0..size(R, 1)-1
            assert(C[i, j] == R[i, j])
        endfor
    endfor
endfor
print "dense_multiply_109: ok"
