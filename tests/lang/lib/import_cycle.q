% Imported by profile.q, and imports it back (see tests/lang/import_macros.q).
import "profile.q"

function z = cycle_fn(a)
   z = a + 1
endfunction
