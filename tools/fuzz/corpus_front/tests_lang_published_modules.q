% Quasar's standard module names and native modules, imported as published programs import
% them (QUASAR-NOTES.md, "Library modules imported by name"; docs/language.md, "Modules"):
% each finds OpenQuasar's own module in lib/, and built-ins stay what they were.
import "system.q"
import "linalg.q"
import "inttypes.q"
import "floattypes.q"
import "imfilter.q"
import "imresize.q"
import "colortransform.q"
import "immorphology.q"
import "immedfilt.q"
import "imboundary.q"
import "colored_noise.q"
import "Quasar.Runtime.dll"
import "Quasar.Video.dll"
import "Quasar.UI.dll"
import "Quasar.DNN.dll"
import "TIFFIO.dll"

% imfilter.q's functions, and built-ins the modules re-export in Quasar
x = ones(4, 5) * 3
y = imfilter(x, ones(3, 3) / 9)
assert(max(abs(y - x)) < 1e-5)
A = [[1, 2], [3, 4]]
B = A * transpose(A)
assert(B[0, 1] == 1*3 + 2*4)
assert(int(7.9) == 7)
print "published_modules: ok"
