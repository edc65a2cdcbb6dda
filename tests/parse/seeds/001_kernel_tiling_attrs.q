% From seed 001 (Quasar - CUDA Support GUIDE): kernel tiling attributes quoted in the running text (lines 541, 545, 557)
{!kernel_tiling dims=[32,16,1]; mode="global"; target="gpu"} {!kernel_tiling dims=auto; mode="global"; target="gpu"}
{!kernel_tiling dims=[1,1,4]; mode="local"; target="gpu"}
{!kernel_transform enable="simdprocessing"}
{!kernel_tiling dims=auto; mode="global"; target="gpu"} {!kernel_tiling dims=[1,1,4]; mode="local"; target="gpu"}
