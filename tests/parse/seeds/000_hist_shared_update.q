% CHECK: parse-only (fragment: im, pos, ind, y_sh are defined in the kernel of hist_shared)
% From seed 000 (Tutorial 6: Advanced GPU programming), lines 71-73: fragment: the atomic update
v = im[pos]
threadid = mod(ind,nthreads)
y_sh[v, threadid] += 1
