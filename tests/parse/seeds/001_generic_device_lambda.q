% From seed 001 (Quasar - CUDA Support GUIDE), lines 94: a generic __device__ lambda
norm = __device__ (x) -> sqrt(sum(x.^2))
