% lib/colortransform.q: known colours, host-loop references written from the standards'
% formulas, and round trips (each inverse undoes its transform).
import "colortransform.q"

x = zeros(3, 4, 3)
for i = 0..2
    for j = 0..3
        x[i, j, 0] = mod(i * 97 + j * 31, 256)
        x[i, j, 1] = mod(i * 41 + j * 67 + 20, 256)
        x[i, j, 2] = mod(i * 13 + j * 151 + 90, 256)
    endfor
endfor
x[0, 0, :] = [255, 255, 255]   % white
x[0, 1, :] = [255, 0, 0]       % red
x[0, 2, :] = [0, 0, 0]         % black
x[0, 3, :] = [128, 128, 128]   % grey

% round trips
assert(max(abs(hsv2rgb(rgb2hsv(x)) - x)) < 1e-3)
assert(max(abs(ycbcr2rgb(rgb2ycbcr(x)) - x)) < 1e-3)
assert(max(abs(xyz2rgb(rgb2xyz(x)) - x)) < 2e-3)
assert(max(abs(lab2rgb(rgb2lab(x)) - x)) < 2e-3)

% rgb2gray and rgb2ycbcr: the BT.601 weights, pixel by pixel
g = rgb2gray(x)
assert(numel(size(g)) == 2 && size(g, 0) == 3 && size(g, 1) == 4)
yc = rgb2ycbcr(x)
for i = 0..2
    for j = 0..3
        [r, gr, b] = [x[i, j, 0], x[i, j, 1], x[i, j, 2]]
        assert(abs(g[i, j] - (0.299*r + 0.587*gr + 0.114*b)) < 1e-3)
        assert(abs(yc[i, j, 0] - (16 + (65.481*r + 128.553*gr + 24.966*b) / 255)) < 1e-3)
        assert(abs(yc[i, j, 1] - (128 + (-37.797*r - 74.203*gr + 112*b) / 255)) < 1e-3)
        assert(abs(yc[i, j, 2] - (128 + (112*r - 93.786*gr - 18.214*b) / 255)) < 1e-3)
    endfor
endfor
% white is Y = 235, black Y = 16, both with Cb = Cr = 128
assert(abs(yc[0, 0, 0] - 235) < 1e-3 && abs(yc[0, 2, 0] - 16) < 1e-3)
assert(abs(yc[0, 0, 1] - 128) < 1e-3 && abs(yc[0, 2, 2] - 128) < 1e-3)

% HSV of known colours: red (0, 1, 1), white (0, 0, 1), black (0, 0, 0), grey (0, 0, 128/255);
% for the others, H from the sector formula written out
h = rgb2hsv(x)
assert(max(abs(h[0, 1, :] - [0, 1, 1])) < 1e-6)
assert(max(abs(h[0, 0, :] - [0, 0, 1])) < 1e-6 && max(abs(h[0, 2, :])) < 1e-6)
assert(abs(h[0, 3, 2] - 128/255) < 1e-6 && h[0, 3, 1] == 0)
for i = 1..2
    for j = 0..3
        r = x[i, j, 0] / 255
        gr = x[i, j, 1] / 255
        b = x[i, j, 2] / 255
        mx = max(max(r, gr), b)
        mn = min(min(r, gr), b)
        hue = 60 * (mx == r ? mod((gr - b) / (mx - mn) + 6, 6) : _
              (mx == gr ? (b - r) / (mx - mn) + 2 : (r - gr) / (mx - mn) + 4))
        assert(abs(h[i, j, 0] * 360 - hue) < 1e-2)
        assert(abs(h[i, j, 1] - (mx - mn) / mx) < 1e-5 && abs(h[i, j, 2] - mx) < 1e-5)
    endfor
endfor
% H = 1 is red, as H = 0
hv = zeros(1, 1, 3)
hv[0, 0, :] = [1, 1, 1]
assert(max(abs(hsv2rgb(hv)[0, 0, :] - [255, 0, 0])) < 1e-3)

% XYZ: white is the D65 white point; Lab: white (100, 0, 0), greys have a = b = 0,
% red's Lab is (53.24, 80.09, 67.20) (the sRGB primary's published value)
xyz = rgb2xyz(x)
assert(max(abs(xyz[0, 0, :] - [0.95047, 1, 1.08883])) < 1e-4)
assert(abs(xyz[0, 1, 1] - 0.2126729) < 1e-5)
lab = rgb2lab(x)
assert(max(abs(lab[0, 0, :] - [100, 0, 0])) < 1e-2)
assert(max(abs(lab[0, 1, :] - [53.24, 80.09, 67.20])) < 2e-2)
assert(abs(lab[0, 3, 1]) < 1e-2 && abs(lab[0, 3, 2]) < 1e-2)
% L of a grey level from the sRGB curve and CIE's L* = 116 Y^(1/3) - 16
lin = ((128/255 + 0.055) / 1.055) ^ 2.4
assert(abs(lab[0, 3, 0] - (116 * lin ^ (1/3) - 16)) < 1e-2)
% XYZ of any pixel: the sRGB matrix times the linearized channels
for j = 0..3
    c = [0.0, 0.0, 0.0]
    for k = 0..2
        v = x[2, j, k] / 255
        c[k] = v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ^ 2.4
    endfor
    assert(abs(xyz[2, j, 1] - (0.2126729*c[0] + 0.7151522*c[1] + 0.0721750*c[2])) < 1e-4)
endfor
print "lib_colortransform: ok"
