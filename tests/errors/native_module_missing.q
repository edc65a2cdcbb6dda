% EXPECT: 1 form: OpenQuasar does not provide this function of Quasar\.UI\.dll
% A function of a native module that OpenQuasar does not provide yet stops the program with an
% error naming the module (lib/Quasar.UI.q), not an unknown-name error.
import "Quasar.UI.dll"

frm = form("settings")
