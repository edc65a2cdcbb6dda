% Seed 003, 10.6: the generic parallel_reduction with device_sum and device_prod passed as
% function values. What the code computes: it runs as one block of 512 (parallel_do(512,
% ...)), and every one of the 512 threads ends with `y += bins[0]` (my_sum guards this with
% `if blkpos == 0`), so the result is 512 times the reduction. The starting value `val`
% is the seed's argument: 0 for the sum; 1 here for the product (with the seed's 0 the
% product is 0, see reduction_106.q).
% REPAIR: typographic apostrophes (U+2019, PDF damage) are straight quotes: vec'unchecked.
% REPAIR: `nblocks = (numel(x)+blkdim-1)/blkdim)` has one `)` too many; removed.

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
y += bins[0] % write output
endfunction
device_sum = __device__ (x : scalar, y : scalar) -> x + y
device_prod = __device__ (x : scalar, y : scalar) -> x * y

% ---- test driver ----
N = 1000
x = zeros(N)
total = 0
for i = 0..N-1
    x[i] = mod(i * 13, 10)
    total += x[i]
endfor
r = parallel_do(512, x, device_sum, 0, parallel_reduction)
assert(r == 512 * total)

% the product of powers of two is exact in any order
w = ones(N)
prod_ref = 1.0
for i = 0..N-1
    if mod(i, 7) == 0
        w[i] = 2
    elseif mod(i, 5) == 0
        w[i] = 0.5
    endif
    prod_ref *= w[i]
endfor
assert(prod_ref != 1)
r = parallel_do(512, w, device_prod, 1, parallel_reduction)
assert(r == 512 * prod_ref)

% a maximum, with a device function defined here
device_max = __device__ (a : scalar, b : scalar) -> a > b ? a : b
x[123] = 50
r = parallel_do(512, x, device_max, -1, parallel_reduction)
assert(r == 512 * 50)

% fewer elements than threads: the idle threads keep the starting value
small = [1, 2, 3]
assert(parallel_do(512, small, device_sum, 0, parallel_reduction) == 512 * 6)
print "parallel_reduction_106: ok"
