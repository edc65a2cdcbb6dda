% plot, hold, subplot and pause without a display: the PNG files, read back with imread,
% against the geometry docs/library.md gives (data area from (40, 12), 588 x 440 pixels
% in a 640 x 480 figure; y grows upward; limits are the data's minimum..maximum).
function [ok] = at(img, r, c, rgb)
    ok = img[r, c, 0] == rgb[0] && img[r, c, 1] == rgb[1] && img[r, c, 2] == rgb[2]
endfunction

function [] = main(dir : string = ".")
    blue = [0, 114, 189]
    red = [255, 0, 0]
    white = [255, 255, 255]
    black = [0, 0, 0]
    plot(0..10, 0..10)
    hold("on")
    plot(0..10, 10..-1..0, "r")
    hold("off")
    p = imread(dir + "/plot_png_plot1.png")
    assert(size(p, 0) == 480 && size(p, 1) == 640 && size(p, 2) == 3)
    % vertices: x = 40 + round(i / 10 * 587), y = 12 + 439 - round(v / 10 * 439)
    for i = [0, 3, 7]
        xp = 40 + round(i / 10 * 587)
        assert(at(p, 12 + 439 - round(i / 10 * 439), xp, blue))
        assert(at(p, 12 + round(i / 10 * 439), xp, red))
    endfor
    assert(at(p, 12, 40, red))        % red starts at (0, 10): the top left corner
    assert(at(p, 451, 627, red))
    assert(at(p, 12, 627, blue))
    assert(at(p, 100, 300, white))    % far from both lines
    assert(at(p, 11, 200, black))     % the axes box, one pixel outside the data area
    assert(at(p, 452, 200, black))
    assert(at(p, 300, 39, black))
    assert(at(p, 300, 628, black))
    assert(at(p, 2, 2, white))        % the margin
    % hold("off"): a new figure, file 2; dots of a given colour
    plot([2, 4], [1, 3], "k.")
    q = imread(dir + "/plot_png_plot2.png")
    assert(at(q, 451 - 1, 40 + 1, black))   % the dot around (40, 451)
    assert(at(q, 300, 300, white))
    % subplot: a 1 x 2 figure of 240 x 320 panels, file 3, redrawn in place
    subplot(1, 2, 0)
    imshow(ones(60, 80) * 128)
    subplot(1, 2, 1)
    plot([5, 5, 5])                   % flat: limits widened to 4..6, the line at mid-height
    s = imread(dir + "/plot_png_subplot3.png")
    assert(size(s, 0) == 240 && size(s, 1) == 640)
    assert(at(s, 100, 100, [128, 128, 128]))    % the image fills panel 0 (same aspect)
    assert(at(s, 12 + 199 - round(199 / 2), 320 + 40 + 100, blue))
    assert(at(s, 11, 320 + 100, black))
    % pause waits
    tic()
    pause(30)
    assert(toc() >= 29)
    print "plot_png: ok"
endfunction
