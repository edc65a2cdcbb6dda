% lib/immedfilt.q against a host reference that sorts each window (insertion sort),
% and medians of known windows.
import "immedfilt.q"

x = zeros(5, 6, 2)
for i = 0..4
    for j = 0..5
        x[i, j, 0] = mod(i * 7 + j * 11, 9)
        x[i, j, 1] = mod(i * j * 5 + j, 13) - 6
    endfor
endfor

function y = reference(x, r)
    [H, W, C] = [size(x, 0), size(x, 1), size(x, 2)]
    n = (2*r + 1)^2
    y = zeros(H, W, C)
    for i = 0..H-1
        for j = 0..W-1
            for c = 0..C-1
                win = zeros(n)
                k = 0
                for m = -r..r
                    for q = -r..r
                        v = x[min(max(i + m, 0), H - 1), min(max(j + q, 0), W - 1), c]
                        % insert v into the sorted prefix win[0..k-1]
                        t = k
                        while t > 0 && win[t - 1] > v
                            win[t] = win[t - 1]
                            t = t - 1
                        endwhile
                        win[t] = v
                        k = k + 1
                    endfor
                endfor
                y[i, j, c] = win[(n - 1) / 2]
            endfor
        endfor
    endfor
endfunction

assert(max(abs(immedfilt(x, 1) - reference(x, 1))) == 0)
assert(max(abs(immedfilt(x, 2) - reference(x, 2))) == 0)
assert(max(abs(immedfilt(x, 0) - x)) == 0)

% the median of a known window: 3x3 of 1..9 shuffled is 5; an outlier is removed
w = [[9, 1, 7], [3, 5, 2], [8, 4, 6]]
assert(immedfilt(w, 1, "zero")[1, 1] == 5)
spike = ones(5, 5) * 3
spike[2, 2] = 100
assert(max(abs(immedfilt(spike, 1) - 3)) == 0)
% zero padding (MATLAB's medfilt2): a corner of ones has 4 ones and 5 zeros -> 0
assert(immedfilt(ones(4, 4), 1, "zero")[0, 0] == 0 && immedfilt(ones(4, 4), 1, "zero")[1, 1] == 1)
% a vec is a 1 x N row: the clamped window repeats the row
v = immedfilt([5, 1, 4, 2, 3], 1)
assert(numel(size(v)) == 1 && v[0] == 5 && v[1] == 4 && v[2] == 2 && v[3] == 3 && v[4] == 3)
print "lib_immedfilt: ok"
