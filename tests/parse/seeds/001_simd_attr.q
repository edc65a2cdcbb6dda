% From seed 001 (Quasar - CUDA Support GUIDE), lines 581: automatic vectorization
{!kernel_transform enable="simdprocessing"}
