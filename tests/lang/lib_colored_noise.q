% lib/colored_noise.q: the statistics the noise must have, from closed forms. The noise is
% random (no fixed seed), so each bound is about five standard errors of its estimate.
import "colored_noise.q"

% the mean over the image of n[i, j] * n[i + di, j + dj] (periodic)
function c = autocorr(n, di, dj)
    [H, W] = [size(n, 0), size(n, 1)]
    c = 0.0
    for i = 0..H-1
        for j = 0..W-1
            c += n[i, j] * n[mod(i + di, H), mod(j + dj, W)]
        endfor
    endfor
    c = c / (H * W)
endfunction

% h = ones(3,3)/3: variance sum(h.^2) = 1, lag 1 correlation 6/9, none from lag 3 on
n = colored_noise([64, 64], ones(3, 3) / 3)
assert(size(n, 0) == 64 && size(n, 1) == 64 && numel(size(n)) == 2)
v = autocorr(n, 0, 0)
assert(abs(v - 1) < 0.25)
assert(abs(autocorr(n, 0, 1) / v - 2/3) < 0.15)
assert(abs(autocorr(n, 1, 0) / v - 2/3) < 0.15)
assert(abs(autocorr(n, 1, 1) / v - 4/9) < 0.15)
assert(abs(autocorr(n, 0, 3) / v) < 0.15)

% the correlation of a 1 x 2 mask [1, 1]: along rows only
r = colored_noise([64, 64], [1, 1])
vr = autocorr(r, 0, 0)
assert(abs(vr - 2) < 0.5)
assert(abs(autocorr(r, 0, 1) / vr - 0.5) < 0.15 && abs(autocorr(r, 1, 0) / vr) < 0.15)

% Gaussian correlation: unit variance, correlation exp(-d^2 / (2 sigma^2))
g = colored_noise_gaussian([64, 64], 1.5)
vg = autocorr(g, 0, 0)
assert(abs(vg - 1) < 0.6)
assert(abs(autocorr(g, 0, 1) / vg - exp(-1 / 4.5)) < 0.1)
assert(abs(autocorr(g, 2, 0) / vg - exp(-4 / 4.5)) < 0.15)

% channels are independent
c = colored_noise([32, 32, 2], ones(2, 2) / 2)
assert(size(c, 2) == 2)
cross = 0.0
for i = 0..31
    for j = 0..31
        cross += c[i, j, 0] * c[i, j, 1]
    endfor
endfor
assert(abs(cross / 1024) < 0.3)
print "lib_colored_noise: ok"
