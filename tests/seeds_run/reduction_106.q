% Seed 003, 10.6: the `reduction (x : cube) -> sum(x) = ...` definitions that replace sum
% and prod by parallel_reduction. What the code computes (see parallel_reduction_106.q):
% sum(x) becomes 512 times the sum, and prod(x), started from the seed's val = 0, is 0.
% The reference sums are plain loops: sum() itself is what is being replaced.
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
reduction (x : cube) -> sum(x) = parallel_do(512, x, device_sum,0,parallel_reduction)
reduction (x : cube) -> prod(x) = parallel_do(512, x, device_prod,0,parallel_reduction)

% ---- test driver ----
N = 700
x = zeros(N)
total = 0
for i = 0..N-1
    x[i] = mod(i * 3, 8)
    total += x[i]
endfor
s = sum(x)
assert(s == 512 * total)

w = ones(N) * 2
assert(prod(w) == 0)
print "reduction_106: ok"
