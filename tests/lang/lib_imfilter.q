% lib/imfilter.q against plain host loops: every boundary rule, the centre argument,
% vec/matrix/cube inputs, gaussian_filter and box_filter.
import "imfilter.q"

% The index each rule reads for i in 0..n-1 extended, written out case by case
% (docs/library.md): -1 means a zero sample.
function j = ref_index(i, n, rule)
    j = i
    if i < 0 || i >= n
        if rule == "zero" || rule == "safe"
            j = -1
        elseif rule == "clamped"
            j = i < 0 ? 0 : n - 1
        elseif rule == "circular"
            j = i
            while j < 0
                j = j + n
            endwhile
            while j >= n
                j = j - n
            endwhile
        elseif rule == "mirror"
            % Quasar's rule: |i| mod 2n, folded back when >= n
            j = abs(i)
            while j >= 2*n
                j = j - 2*n
            endwhile
            if j >= n
                j = 2*n - 1 - j
            endif
        else
            % symmetric: ... 1 0 | 0 1 2 ... n-1 | n-1 n-2 ...
            j = i
            while j < 0 || j >= n
                j = j < 0 ? -1 - j : 2*n - 1 - j
            endwhile
        endif
    endif
endfunction

function y = reference_correlate(x, mask, cy, cx, rule)
    [H, W, C] = [size(x, 0), size(x, 1), size(x, 2)]
    y = zeros(H, W, C)
    for i = 0..H-1
        for j = 0..W-1
            for c = 0..C-1
                total = 0.0
                for m = 0..size(mask,0)-1
                    for n = 0..size(mask,1)-1
                        ii = ref_index(i + m - cy, H, rule)
                        jj = ref_index(j + n - cx, W, rule)
                        if ii >= 0 && jj >= 0
                            total += x[ii, jj, c] * mask[m, n]
                        endif
                    endfor
                endfor
                y[i, j, c] = total
            endfor
        endfor
    endfor
endfunction

x = zeros(7, 9, 2)
for i = 0..6
    for j = 0..8
        x[i, j, 0] = mod(i * 7 + j * 3, 10)
        x[i, j, 1] = i - j
    endfor
endfor

% The default: centre [floor(rows/2), floor(cols/2)], clamped.
mask = [[1, 2, 0], [0, -1, 3]]          % 2x3: centre [1, 1]
y = imfilter(x, mask)
assert(max(abs(y - reference_correlate(x, mask, 1, 1, "clamped"))) < 1e-4)

% Every rule, with a 3x4 mask reaching 3 past the edge and an off-centre ctr.
big = [[1, 2, 0, 1], [0, -1, 3, 2], [4, 0, 1, -2]]
function [] = check_rule(x, big, rule)
    y = imfilter(x, big, [2, 3], rule)
    ref = reference_correlate(x, big, 2, 3, rule)
    assert(max(abs(y - ref)) < 1e-4)
    y = imfilter(x, big, [0, 0], rule)
    ref = reference_correlate(x, big, 0, 0, rule)
    assert(max(abs(y - ref)) < 1e-4)
endfunction
check_rule(x, big, "zero")
check_rule(x, big, "safe")
check_rule(x, big, "mirror")
check_rule(x, big, "circular")
check_rule(x, big, "clamped")
check_rule(x, big, "symmetric")

% A rule name in place of the centre: the default centre with that rule
assert(max(abs(imfilter(x, big, "circular") - reference_correlate(x, big, 1, 2, "circular"))) < 1e-4)

% MATLAB's centre as published code writes it: ceil(size(H)/2)-1.
H = [[1, 2], [3, 4]]
y = imfilter(x, H, ceil(size(H)/2)-1, "mirror")
assert(max(abs(y - reference_correlate(x, H, 0, 0, "mirror"))) < 1e-4)

% A delta image filtered (zero outside) gives the mask, mirrored about its centre
% (correlation): y[4 - m + 1, 4 - n + 1] = mask[m, n] for a centre [1, 1].
delta = zeros(9, 9)
delta[4, 4] = 1
yd = imfilter(delta, big, [1, 1], "zero")
assert(numel(size(yd)) == 2 && size(yd, 0) == 9 && size(yd, 1) == 9)
for m = 0..2
    for n = 0..3
        assert(yd[4 - m + 1, 4 - n + 1] == big[m, n])
    endfor
endfor
assert(abs(sum(yd) - sum(big)) < 1e-5)

% A vec is a 1 x N row: a vec mask filters along it; the result is a vec.
v = [1, 4, 2, 8, 5, 7]
yv = imfilter(v, [1, 2, 3], 1, "circular")
assert(numel(size(yv)) == 1 && numel(yv) == 6)
for j = 0..5
    assert(abs(yv[j] - (v[mod(j + 5, 6)] + 2*v[j] + 3*v[mod(j + 1, 6)])) < 1e-5)
endfor

% The Gaussian taps sum to one, are symmetric, and blur a constant image to itself.
g = gaussian_taps(1.5)
assert(numel(g) == 11 && abs(sum(g) - 1) < 1e-6 && abs(g[0] - g[10]) < 1e-9)
assert(numel(gaussian_taps(3, 9)) == 9)
flat = ones(6, 7, 3) * 42
assert(max(abs(gaussian_filter(flat, 1.5) - 42)) < 1e-3)
assert(max(abs(gaussian_filter(flat, 1.5, 0, "mirror") - 42)) < 1e-3)

% Separable Gaussian = 2-D correlation with the outer product of the taps, for every rule.
function outer = outer_product(a, b)
    outer = zeros(numel(a), numel(b))
    for m = 0..numel(a)-1
        for n = 0..numel(b)-1
            outer[m, n] = a[m] * b[n]
        endfor
    endfor
endfunction
g2 = gaussian_taps(0.8)
o2 = outer_product(g2, g2)
c2 = floor(numel(g2) / 2)
assert(max(abs(gaussian_filter(x, 0.8) - reference_correlate(x, o2, c2, c2, "clamped"))) < 1e-3)
assert(max(abs(gaussian_filter(x, 0.8, 0, "circular") - _
               reference_correlate(x, o2, c2, c2, "circular"))) < 1e-3)
assert(max(abs(gaussian_filter(x, 0.8, "circular") - gaussian_filter(x, 0.8, 0, "circular"))) == 0)
g3 = gaussian_taps(2, 5)
o3 = outer_product(g3, g3)
assert(max(abs(gaussian_filter(x, 2, 5, "zero") - reference_correlate(x, o3, 2, 2, "zero"))) < 1e-3)

% A Gaussian tap by its closed form: exp(-d^2 / (2 sigma^2)) / total.
total = 0.0
for d = -3..3
    total += exp(-d*d / 8)
endfor
assert(abs(gaussian_taps(2, 7)[2] - exp(-1/8) / total) < 1e-6)

% box_filter: the mean over the window, an even size's centre at floor(n/2).
bx = box_filter(x, [2, 3], "mirror")
assert(max(abs(bx - reference_correlate(x, ones(2, 3) / 6, 1, 1, "mirror"))) < 1e-4)
b3 = box_filter(x[:, :, 0], 3)
assert(numel(size(b3)) == 2)
r3 = reference_correlate(x[:, :, 0], ones(3, 3) / 9, 1, 1, "clamped")
assert(max(abs(b3 - r3[:, :, 0])) < 1e-4)
print "lib_imfilter: ok"
