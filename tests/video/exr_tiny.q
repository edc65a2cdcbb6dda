% exrread of tiny.exr, written by exr_tiny.c without OpenEXR (the independent reference):
% FLOAT channels R, G, B in a data window of 7 x 5 pixels starting at (3, 2).
function [] = main(dir : string = ".")
    im = exrread(dir + "/tiny.exr")
    assert(im.width == 7 && im.height == 5)
    assert(im.channels == "RGB")
    x = im.data
    assert(size(x, 0) == 5 && size(x, 1) == 7 && size(x, 2) == 3)
    for r = 0..4
        for c = 0..6
            for ch = 0..2
                want = (c - 2 * r + 3 * ch) / 4 + (ch == 2 ? 100 : 0)
                assert(x[r, c, ch] == want)
            endfor
        endfor
    endfor
    print "exr_tiny: ok"
endfunction
