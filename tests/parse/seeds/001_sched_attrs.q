% From seed 001 (Quasar - CUDA Support GUIDE), lines 847, 849: choosing the GPU
% REPAIR: the word 'or' between the two alternatives (line 848) is prose and left out
{!sched gpu_index=0}
{!sched gpu_index=1}
