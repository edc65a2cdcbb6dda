% exrwrite then exrread: values that half precision holds come back exactly, others within
% half's rounding (relative 2^-11); gray is written as equal R, G, B; alpha is kept.
function [] = main(dir : string = ".")
    h = 6; w = 9
    x = zeros(h, w, 4)
    for r = 0..h-1
        for c = 0..w-1
            x[r, c, 0] = (r * w + c) / 8 - 3        % exact in half
            x[r, c, 1] = 1024 + 2 * c               % exact in half
            x[r, c, 2] = 0.1 * (r + 1) * (c + 1)    % rounded to half
            x[r, c, 3] = c / 8
        endfor
    endfor
    exrwrite(dir + "/rgba.exr", x)
    im = exrread(dir + "/rgba.exr")
    assert(im.channels == "RGBA" && im.width == w && im.height == h)
    y = im.data
    assert(size(y, 2) == 4)
    for r = 0..h-1
        for c = 0..w-1
            assert(y[r, c, 0] == x[r, c, 0] && y[r, c, 1] == x[r, c, 1] && y[r, c, 3] == x[r, c, 3])
            assert(abs(y[r, c, 2] - x[r, c, 2]) <= abs(x[r, c, 2]) * 2^-11)
        endfor
    endfor
    g = zeros(3, 4)
    for i = 0..11
        g[i] = i * 0.25
    endfor
    exrwrite(dir + "/gray.exr", g)
    e = exrread(dir + "/gray.exr")
    assert(e.channels == "RGB")
    d = e.data
    for r = 0..2
        for c = 0..3
            for ch = 0..2
                assert(d[r, c, ch] == g[r, c])
            endfor
        endfor
    endfor
    print "exr_roundtrip: ok"
endfunction
