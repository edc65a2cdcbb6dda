% From seed 000 (Tutorial 6: Advanced GPU programming), lines 112-118: the hist_profile macro
% REPAIR: removed a stray '}' after target="gpu" (the line has no '{!')
macro [] = hist_profile()
   if $target("gpu")
       !kernel_arg name=y; type="inout"; access="shared"; op="+="; cache_slices=y[:]; numel=256
       !kernel_transform enable="sharedmemcaching"
       !kernel_tiling dims=[128,256,1]; mode="global"; target="gpu"
   endif
endmacro
