% lib/imfilter.q against plain host loops with the same clamped boundary.
import "imfilter.q"

function y = reference_correlate(x, mask)
    [H, W, C] = size(x)
    cy = floor(size(mask,0)/2)
    cx = floor(size(mask,1)/2)
    y = zeros(H, W, C)
    for i = 0..H-1
        for j = 0..W-1
            for c = 0..C-1
                total = 0.0
                for m = 0..size(mask,0)-1
                    for n = 0..size(mask,1)-1
                        ii = min(max(i + m - cy, 0), H - 1)
                        jj = min(max(j + n - cx, 0), W - 1)
                        total += x[ii, jj, c] * mask[m, n]
                    endfor
                endfor
                y[i, j, c] = total
            endfor
        endfor
    endfor
endfunction

x = zeros(9, 11, 2)
for i = 0..8
    for j = 0..10
        x[i, j, 0] = mod(i * 7 + j * 3, 10)
        x[i, j, 1] = i - j
    endfor
endfor

mask = [[1, 2, 0], [0, -1, 3]]          % 2x3: centre [1, 1]
y = imfilter(x, mask)
ref = reference_correlate(x, mask)
assert(max(abs(y - ref)) < 1e-4)

% The Gaussian taps sum to one, are symmetric, and blur a constant image to itself.
g = gaussian_taps(1.5)
assert(numel(g) == 11 && abs(sum(g) - 1) < 1e-6 && abs(g[0] - g[10]) < 1e-9)
flat = ones(6, 7, 3) * 42
assert(max(abs(gaussian_filter(flat, 1.5) - 42)) < 1e-3)

% Separable Gaussian = 2-D correlation with the outer product of the taps.
g2 = gaussian_taps(0.8)
outer = zeros(numel(g2), numel(g2))
for m = 0..numel(g2)-1
    for n = 0..numel(g2)-1
        outer[m, n] = g2[m] * g2[n]
    endfor
endfor
assert(max(abs(gaussian_filter(x, 0.8) - reference_correlate(x, outer))) < 1e-3)
print "lib_imfilter: ok"
