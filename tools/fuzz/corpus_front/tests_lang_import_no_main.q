% A program without main() that imports a module with one runs its top level only: the
% module's main() (it raises an error) is not called.
import "lib/module_with_main.q"

assert(triple(5) == 15)
