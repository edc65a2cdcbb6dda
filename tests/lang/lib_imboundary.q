% lib/imboundary.q: padarray for every rule against the rules written out by hand,
% fftshift2 / ifftshift2 against their closed form, on real and complex arrays.
import "imboundary.q"

x = [[1, 2, 3], [4, 5, 6]]

% Quasar's mirror: -1 -> 1, -2 -> 2, N -> N-1; rows of x are 0, 1 (N = 2), cols 0..2.
p = padarray(x, [1, 2], "mirror")
assert(size(p, 0) == 4 && size(p, 1) == 7 && numel(size(p)) == 2)
rows = [1, 0, 1, 1]           % i = -1, 0, 1, 2
cols = [2, 1, 0, 1, 2, 2, 1]  % j = -2 .. 4
for i = 0..3
    for j = 0..6
        assert(p[i, j] == x[rows[i], cols[j]])
    endfor
endfor

% symmetric (MATLAB's): -1 -> 0, -2 -> 1, N -> N-1, N+1 -> N-2
p = padarray(x, [1, 2], "symmetric")
rows = [0, 0, 1, 1]
cols = [1, 0, 0, 1, 2, 2, 1]
for i = 0..3
    for j = 0..6
        assert(p[i, j] == x[rows[i], cols[j]])
    endfor
endfor

% circular, clamped, zero
p = padarray(x, [1, 2], "circular")
for i = 0..3
    for j = 0..6
        assert(p[i, j] == x[mod(i - 1 + 2, 2), mod(j - 2 + 3, 3)])
    endfor
endfor
p = padarray(x, 2, "clamped")
for i = 0..5
    for j = 0..6
        assert(p[i, j] == x[min(max(i - 2, 0), 1), min(max(j - 2, 0), 2)])
    endfor
endfor
p = padarray(x, [1, 1])
assert(sum(p) == sum(x) && p[0, 0] == 0 && p[1, 1] == 1 && p[2, 3] == 6 && p[3, 4] == 0)

% a cube: each channel alone
c = zeros(2, 3, 2)
c[:, :, 0] = x
c[:, :, 1] = -x
pc = padarray(c, 1, "clamped")
assert(size(pc, 0) == 4 && size(pc, 1) == 5 && size(pc, 2) == 2)
assert(max(abs(pc[:, :, 1] + padarray(x, 1, "clamped"))) == 0)

% fftshift2: element [0,0] goes to [floor(h/2), floor(w/2)]; ifftshift2 undoes it.
a = zeros(5, 4)
for i = 0..4
    for j = 0..3
        a[i, j] = 10 * i + j
    endfor
endfor
s = fftshift2(a)
for i = 0..4
    for j = 0..3
        assert(s[mod(i + 2, 5), mod(j + 2, 4)] == a[i, j])
    endfor
endfor
assert(max(abs(ifftshift2(fftshift2(a)) - a)) == 0)
assert(max(abs(fftshift2(ifftshift2(a)) - a)) == 0)
v = [1, 2, 3, 4, 5]
sv = fftshift2(v)
assert(numel(size(sv)) == 1 && sv[0] == 4 && sv[2] == 1 && sv[4] == 3)
z = complex(a, -a)
sz = fftshift2(z)
assert(max(abs(real(sz) - s)) == 0 && max(abs(imag(sz) + s)) == 0)
print "lib_imboundary: ok"
