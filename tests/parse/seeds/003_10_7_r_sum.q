% From seed 003 (10 Parallel programming examples), lines 288-335: a more accurate parallel sum (Kahan)
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
% Kahan’s sum reduction
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
