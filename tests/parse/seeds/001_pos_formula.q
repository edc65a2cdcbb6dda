% CHECK: parse-only (fragment: the formula pos = blkidx .* blkdim + blkpos, outside a kernel)
% From seed 001 (Quasar - CUDA Support GUIDE), lines 118: how pos is computed
pos = blkidx .* blkdim + blkpos
