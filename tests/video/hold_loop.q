% `repeat ... until !hold("on")` as a published tone-curve tool writes it: hold returns
% true while a window is open; without a display (files, as here) it is false, so the loop
% draws once and ends (docs/library.md, "Forms"), leaving one figure whose curve is read
% back from the PNG.
function [] = main(dir : string = ".")
    b = 0.18
    c = 0.18
    contrast = 10
    shoulder = 20
    x = [0.1..0.1..1]
    z = pow(x, contrast)
    y = z ./ (pow(z, shoulder) * b + c)
    n = 0
    repeat
        plot(x, y);
        n += 1
    until !hold("on")
    assert(n == 1)
    assert(hold("off") == false)
    p = imread(dir + "/hold_loop_plot1.png")
    assert(size(p, 0) == 480 && size(p, 1) == 640)
    % the first point (x = 0.1, the smallest y) sits at the bottom left of the data area
    lo = min(y)
    assert(y[0] == lo)
    assert(p[451, 40, 0] == 0 && p[451, 40, 1] == 114 && p[451, 40, 2] == 189)
    print "hold_loop: ok"
endfunction
