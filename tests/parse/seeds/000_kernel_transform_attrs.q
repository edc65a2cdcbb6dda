% From seed 000 (Tutorial 6: Advanced GPU programming), lines 86-87: the code attributes of the caching transform
!kernel_transform enable="sharedmemcaching"
!kernel_arg name=y; type="inout"; access="shared"; op="+="; cache_slices=y[:]; numel=256
