% lib/immorphology.q against host loops over the structuring element, and the
% identities of opening and closing (anti-extensive / extensive, idempotent).
import "immorphology.q"

x = zeros(6, 7, 2)
for i = 0..5
    for j = 0..6
        x[i, j, 0] = mod(i * 7 + j * 5, 13)
        x[i, j, 1] = mod(i * j + 3 * i, 7)
    endfor
endfor

% min of x[p + b] (erosion) or max of x[p - b] (dilation), b = [m, n] - ctr with
% mask[m, n] != 0, samples inside the image only
function y = reference(x, mask, cy, cx, dilate)
    [H, W, C] = [size(x, 0), size(x, 1), size(x, 2)]
    y = zeros(H, W, C)
    s = dilate ? -1 : 1
    for i = 0..H-1
        for j = 0..W-1
            for c = 0..C-1
                best = dilate ? -1/0 : 1/0     % MATLAB's padding: no sample inside
                first = true
                for m = 0..size(mask, 0)-1
                    for n = 0..size(mask, 1)-1
                        ii = i + s * (m - cy)
                        jj = j + s * (n - cx)
                        if mask[m, n] != 0 && ii >= 0 && ii < H && jj >= 0 && jj < W
                            v = x[ii, jj, c]
                            if first
                                best = v
                                first = false
                            elseif dilate
                                best = max(best, v)
                            else
                                best = min(best, v)
                            endif
                        endif
                    endfor
                endfor
                y[i, j, c] = best
            endfor
        endfor
    endfor
endfunction

cross = [[0, 1, 0], [1, 1, 1], [0, 1, 0]]
assert(max(abs(imerode(x, cross) - reference(x, cross, 1, 1, false))) == 0)
assert(max(abs(imdilate(x, cross) - reference(x, cross, 1, 1, true))) == 0)
L = [[1, 1, 0], [0, 1, 1]]                 % asymmetric, off-centre
assert(max(abs(imerode(x, L, [1, 2]) - reference(x, L, 1, 2, false))) == 0)
assert(max(abs(imdilate(x, L, [1, 2]) - reference(x, L, 1, 2, true))) == 0)
% a centre outside the mask's support: some windows hold no sample (-Inf / +Inf)
di = imdilate(x, L, [1, 0])
ref = reference(x, L, 1, 0, true)
assert(di[5, 0, 0] == -1/0 && ref[5, 0, 0] == -1/0)
assert(max(abs(di[0..4, :, :] - ref[0..4, :, :])) == 0)
assert(max(abs(di[5, 1..6, :] - ref[5, 1..6, :])) == 0)

% opening <= x <= closing, both idempotent, for an asymmetric mask and centre
for rep = 0..1
    m = rep == 0 ? ones(3, 3) : L
    c = rep == 0 ? [1, 1] : [0, 1]
    o = imopen(x, m, c)
    cl = imclose(x, m, c)
    assert(max(o - x) <= 0 && max(x - cl) <= 0)
    assert(max(abs(imopen(o, m, c) - o)) == 0 && max(abs(imclose(cl, m, c) - cl)) == 0)
    assert(max(abs(o - imdilate(imerode(x, m, c), m, c))) == 0)
endfor

% a single bright pixel: opened away by a 2x2 square, a dark hole closed
d = zeros(5, 5)
d[2, 2] = 9
assert(max(imopen(d, ones(2, 2), [0, 0])) == 0)
assert(max(abs(imdilate(d, ones(3, 3)) - reference(d, ones(3, 3), 1, 1, true)[:, :, 0])) == 0)
hole = ones(5, 5) * 4
hole[1, 3] = 0
assert(min(imclose(hole, ones(3, 3))) == 4)
print "lib_immorphology: ok"
