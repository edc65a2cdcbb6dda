% Only the main() of the file that was run is called; an imported module's main() never
% replaces it (QUASAR-NOTES.md, "What published programs rely on").
import "lib/module_with_main.q"

function [] = main()
    assert(triple(4) == 12)
    print "import_main: ok"
end
