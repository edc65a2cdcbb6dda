% EXPECT: 1 add_slider\(label, value, min, max\): value, min and max must be numbers
% A slider's value and limits are numbers (lib/Quasar.UI.q).
import "Quasar.UI.dll"

frm = form("settings")
s = frm.add_slider("gamma", "high", 0, 1)
