% CHECK: parse-only (fragments: A, B, C, D, x, ... are placeholders of the text)
% From seed 001 (Quasar - CUDA Support GUIDE): code quoted in the running text and tables (lines 184 text, 245-250, 289-292, 331, 633)
a=0; b=(a+=1)
syncthreads(warp)
syncthreads(block)
syncthreads(grid)
syncthreads(multi_grid)
syncthreads(host)
syncthreads
memfence(grid)
memfence(block)
memfence(system)
{!kernel target="nvidia_cuda"}
C = A+B.*C+D[:,:,2]
