% netpbm files (rt_pnm.c), run by tests/examples/run.sh with a scratch folder: 8- and
% 16-bit gray and RGB round trips are exact; alpha is dropped; a matrix is gray.
function [] = main(dir : string)
    x = zeros(5, 7, 3)
    for m = 0..4
        for n = 0..6
            for c = 0..2
                x[m, n, c] = mod(37 * m + 11 * n + 85 * c, 256)
            endfor
        endfor
    endfor
    x[0, 0, 0] = 255
    imwrite(dir + "/rgb.ppm", x)
    imwrite16(dir + "/rgb16.ppm", x)
    imwrite(dir + "/gray.pgm", x[:, :, 1])
    imwrite16(dir + "/gray16.pgm", x[:, :, 2])
    rgba = zeros(5, 7, 4)
    rgba[:, :, 0..2] = x
    rgba[:, :, 3] = 7
    imwrite(dir + "/rgba.pnm", rgba)
    y = imread(dir + "/rgb.ppm")
    z = imread(dir + "/rgb16.ppm")
    w = imread(dir + "/rgba.pnm")
    g = imread(dir + "/gray.pgm")
    g16 = imread(dir + "/gray16.pgm")
    assert(size(y, 0) == 5 && size(y, 1) == 7 && size(y, 2) == 3 && size(g, 2) == 1 && size(w, 2) == 3)
    for m = 0..4
        for n = 0..6
            assert(g[m, n, 0] == x[m, n, 1] && g16[m, n, 0] == x[m, n, 2])
            for c = 0..2
                assert(y[m, n, c] == x[m, n, c] && z[m, n, c] == x[m, n, c] && w[m, n, c] == x[m, n, c])
            endfor
        endfor
    endfor
    % values are rounded half up and clamped on the way out
    imwrite(dir + "/round.pgm", [[-3, 0.5, 1.49, 254.5, 300]])
    r = imread(dir + "/round.pgm")
    assert(r[0, 0, 0] == 0 && r[0, 1, 0] == 1 && r[0, 2, 0] == 1 && r[0, 3, 0] == 255 && r[0, 4, 0] == 255)
    print "pnm: ok"
endfunction
