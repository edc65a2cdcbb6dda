% From seed 003 (10 Parallel programming examples), lines 203-230: parallel reduction sum
% REPAIR: curly quotes (’) from the PDF written as plain apostrophes
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
if blkpos+index<blkdim
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
