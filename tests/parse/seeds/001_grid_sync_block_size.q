% CHECK: parse-only (fragment: kernel, data_dims are placeholders of the text)
% From seed 001 (Quasar - CUDA Support GUIDE), lines 279-281: opt_block_size and opt_block_cnt
block_size = opt_block_size(kernel,data_dims)
grid_size = opt_block_cnt(kernel,block_size,data_dims)
parallel_do([grid_size.*block_size, block_size], kernel)
