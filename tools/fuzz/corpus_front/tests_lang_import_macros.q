% Macros defined in an imported file expand in the importing file (seed 000's hist_profile
% kept in a library), and an import cycle (lib/profile.q <-> lib/import_cycle.q) loads each
% file once. Until session 5 the macros were unknown here and the cycle crashed oq.
import "lib/profile.q"
import "lib/import_cycle.q"   % a second import of a file already loaded adds nothing

assert(lib_fn(2) == 3 * 2 + 3)
w = scaled(4, 5)
assert(w == 20)

% seed 000's hist_auto_targetspecific, with its macro from the library
im = zeros(40, 30)
for m = 0..39
    for n = 0..29
        im[m, n] = mod(m * 7 + n * 3, 256)
    endfor
endfor
y = zeros(256)
!parallel for
for m = 0..size(im, 0)-1
    for n = 0..size(im, 1)-1
        !hist_profile
        v = im[m, n]
        y[v] += 1
    endfor
endfor
ref = zeros(256)
m = 0
while m < 40
    n = 0
    while n < 30
        ref[im[m, n]] = ref[im[m, n]] + 1
        n = n + 1
    endwhile
    m = m + 1
endwhile
assert(sum(abs(y - ref)) == 0)
print "import_macros: ok"
