% CHECK: parse-only (fragment: im, x, y are defined in the preceding listing)
% From seed 001 (Quasar - CUDA Support GUIDE), lines 50-51: the same filter as a __kernel__ lambda with closure variables
% REPAIR: added the ')' that closes parallel_do( (the document's line has one ')' too few)
parallel_do(size(im),__kernel__ (pos) -> y[pos] =
    (x[pos+[0,-2]]+x[pos[0,2]]+2*(x[pos+[0,-1]]+x[pos+[0,1]]+3*x[pos])/9))
