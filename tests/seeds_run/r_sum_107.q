% Seed 003, 10.7 A more accurate parallel sum: r_sum (Kahan summation per thread, then a
% shared-memory tree) through r_aggregator, and the reduction that makes sum(x) call it.
% The kernel takes x : vec, so the driver sums vectors.
% REPAIR: Kahan's in a comment had a typographic apostrophe (U+2019); now straight.

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

% ---- test driver ----
function t = host_sum(x)
    t = 0
    for i = 0..numel(x)-1
        t += x[i]
    endfor
endfunction

for N = [1, 100, 3000]
    x = zeros(N)
    for i = 0..N-1
        x[i] = mod(i * 29, 100)
    endfor
    x[0] = 7
    ref = host_sum(x)
    assert(r_sum(x) == ref)
    assert(sum(x) == ref)               % through the reduction
endfor

% non-integer data: close to the exact value 4096 * 0.1
x = ones(4096) * 0.1
assert(abs(r_sum(x) - 409.6) < 1e-3)
print "r_sum_107: ok"
