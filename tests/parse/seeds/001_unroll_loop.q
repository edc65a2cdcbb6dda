% CHECK: parse-only (fragment: num_tasks and the kernels are placeholders of the text)
% From seed 001 (Quasar - CUDA Support GUIDE), lines 861-865: unrolling over two GPUs
% REPAIR: the document elides arguments with '...'; written as the name 'args'
for k=0..num_tasks-1
    {!unroll times=2; multi_device=true}
    parallel_do(args, k, kernel1)
    parallel_do(args, k, kernel2)
endfor
