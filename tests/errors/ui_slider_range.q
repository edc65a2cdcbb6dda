% EXPECT: 1 add_slider: the minimum 5 is above the maximum 1
% A slider whose minimum is above its maximum is an error naming both (lib/Quasar.UI.q).
import "Quasar.UI.dll"

frm = form("settings")
s = frm.add_slider("gamma", 2, 5, 1)
