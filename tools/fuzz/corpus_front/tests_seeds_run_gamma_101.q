% Seed 003, 10.1 Gamma correction: a one-line __kernel__ lambda, against a host loop.
% REPAIR: typographic apostrophes (U+2019, PDF damage) are straight quotes: cube'unchecked.
% REPAIR: `x = imread("image.png")` reads a generated image instead (no image files in the
%         tests), and the final imshow(y) is left out (no display).

x = zeros(32, 24, 3)
for m = 0..31
    for n = 0..23
        for k = 0..2
            x[m, n, k] = mod(11 * m + 7 * n * n + 85 * k, 256)
        endfor
    endfor
endfor

% ---- seed code ----
y = copy(x)
gamma = 0.22
parallel_do(size(y),y,gamma,__kernel__ (y:cube'unchecked, gamma:scalar, pos:ivec3) -> _
y[pos] = 255*(y[pos]*(1.0/255))^gamma)

% ---- test driver ----
for m = 0..31
    for n = 0..23
        for k = 0..2
            want = 255 * (x[m, n, k] / 255)^0.22
            assert(abs(y[m, n, k] - want) <= 1e-3 * (1 + want))
        endfor
    endfor
endfor
% x itself is untouched (y was a copy)
assert(x[5, 6, 1] == mod(11 * 5 + 7 * 36 + 85, 256))
% gamma < 1 brightens: every value grows or stays (0 and 255 are fixed points)
for m = 0..31
    assert(y[m, 0, 0] >= x[m, 0, 0] - 1e-3)
endfor
print "gamma_101: ok"
