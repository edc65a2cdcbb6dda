% CHECK: parse-only (fragment: num_tasks and the kernels are placeholders of the text)
% From seed 001 (Quasar - CUDA Support GUIDE), lines 853-857: one GPU per loop iteration
% REPAIR: the document elides arguments with '...'; written as the name 'args'
for k=0..num_tasks-1
    {!sched gpu_index=mod(k,2)}
    parallel_do(args, kernel1)
    parallel_do(args, kernel2)
endfor
