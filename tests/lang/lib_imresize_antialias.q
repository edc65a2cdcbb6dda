% imresize's antialiasing (lib/imresize.q) against host loops written from its definition:
% along an axis that shrinks by s, input pixel i weighs k((u - i) s) (k the bilinear
% triangle or Keys' cubic), indices clamped, each axis's weights normalized; and a closed
% form: bilinear by 0.5 averages 4 pixels per axis with weights 1/8, 3/8, 3/8, 1/8.
import "imresize.q"

function wt = kern(t, cubic)
    a = abs(t)
    wt = 0.0
    if cubic
        if a <= 1
            wt = (1.5*a - 2.5)*a*a + 1
        elseif a < 2
            wt = ((-0.5*a + 2.5)*a - 4)*a + 2
        endif
    else
        wt = max(0.0, 1 - a)
    endif
end

% the weights of one axis: output o of n from an input of length len
function [lo, wts] = axis_weights(o, n, len, cubic)
    r = len / n
    f = r > 1 ? r : 1.0
    sup = cubic ? 2.0 : 1.0
    u = (o + 0.5) * r - 0.5
    lo = int(ceil(u - sup * f))
    hi = int(floor(u + sup * f))
    wts = zeros(hi - lo + 1)
    for i = lo..hi
        wts[i - lo] = kern((u - i) / f, cubic)
    endfor
    wts = wts / sum(wts)
end

function y = reference(x, rows, cols, cubic)
    h = size(x, 0)
    w = size(x, 1)
    y = zeros(rows, cols)
    for p = 0..rows-1
        [ly, wy] = axis_weights(p, rows, h, cubic)
        for q = 0..cols-1
            [lx, wx] = axis_weights(q, cols, w, cubic)
            s = 0.0
            for a = 0..numel(wy)-1
                for b = 0..numel(wx)-1
                    s += wy[a] * wx[b] * x[clamp(ly + a, 0, h - 1), clamp(lx + b, 0, w - 1)]
                endfor
            endfor
            y[p, q] = s
        endfor
    endfor
end

seed(3)
x = rand(23, 17)
for cubic = 0..1
    name = cubic ? "bicubic" : "bilinear"
    for shape = 0..2
        rows = shape == 0 ? 7 : (shape == 1 ? 10 : 31)      % shrink both, one, or the columns only
        cols = shape == 0 ? 5 : (shape == 1 ? 25 : 6)
        y = imresize(x, [rows, cols], name)
        ref = reference(x, rows, cols, cubic)
        assert(size(y, 0) == rows && size(y, 1) == cols)
        assert(max(abs(y - ref)) < 1e-4)
    endfor
    % a constant stays constant when shrinking too
    c = imresize(ones(12, 9) * 5, 0.3, name)
    assert(max(abs(c - 5)) < 1e-4)
endfor

% bilinear by 0.5: weights 1/8, 3/8, 3/8, 1/8 around each pair of pixels (inside)
y = imresize(x, 0.5, "bilinear")
t = [0.125, 0.375, 0.375, 0.125]
for p = 1..9
    for q = 1..6
        s = 0.0
        for a = 0..3
            for b = 0..3
                s += t[a] * t[b] * x[2*p - 1 + a, 2*q - 1 + b]
            endfor
        endfor
        assert(abs(y[p, q] - s) < 1e-5)
    endfor
endfor

% antialias = false keeps the plain interpolation: by 0.5, bilinear is the mean of 2 x 2
z = imresize(x, 0.5, "bilinear", false)
for p = 0..10
    for q = 0..7
        assert(abs(z[p, q] - (x[2*p, 2*q] + x[2*p+1, 2*q] + x[2*p, 2*q+1] + x[2*p+1, 2*q+1]) / 4) < 1e-5)
    endfor
endfor
% a fine pattern: alternating rows shrunk by 1/3 alias without antialiasing, not with it
stripes = zeros(30, 4)
for i = 0..29
    stripes[i, :] = mod(i, 2)
endfor
aa = imresize(stripes, [10, 4], "bilinear")
plain = imresize(stripes, [10, 4], "bilinear", false)
assert(max(abs(aa[1..8, :] - 0.5)) < 0.2 && max(abs(plain - 0.5)) > 0.45)
print "ok"
