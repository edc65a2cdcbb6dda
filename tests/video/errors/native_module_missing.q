% EXPECT: 1 rasterize: OpenQuasar does not provide this function of Quasar\.UI\.dll
% A function of a native module that OpenQuasar does not provide stops the program with an
% error naming the module (lib/Quasar.UI.q: a headless display has no pixels to read back),
% not an unknown-name error. (Here, not in tests/errors/: the plot writes a PNG into the
% scratch folder run.sh gives.)
import "Quasar.UI.dll"

function [] = main(dir : string = ".")
    frm = form("settings")
    disp = frm.add_display()
    h = disp.plot([1, 2, 3])
    y : cube[uint8] = h.rasterize()
endfunction
