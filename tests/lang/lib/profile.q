% A library of macros and functions for tests/lang/import_macros.q; it imports
% import_cycle.q, which imports it back (a cycle: each file loads once).
import "import_cycle.q"

macro [] = hist_profile()
   if $target("gpu")
       !kernel_transform enable="sharedmemcaching"
   endif
endmacro

macro y = scaled(x, k)
   y = k * x
endmacro

function z = lib_fn(a)
   t = scaled(a, 3)
   z = t + cycle_fn(a)
endfunction
