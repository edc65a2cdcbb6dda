% plot of extreme data ends and draws a figure: ranges beyond what a step can count,
% -1e308..1e308, denormals, non-finite points (gaps), a flat range at 1e22, one point.
function [] = main(dir : string = ".")
    plot([1e22, 1e22 + 1e5], [1, 2])
    plot([-1e308, 1e308], [1e308, -1e308])
    plot([5e-324, 1e-323], [0, 0])
    plot([1, 2, 3], [NaN, Inf, -Inf])
    plot([1e22, 1e22], [3, 3])
    plot(1e300)
    for n = 1..6
        p = imread(sprintf("%s/plot_extremes_plot%d.png", dir, n))
        assert(size(p, 0) == 480 && size(p, 1) == 640)
        assert(p[11, 300, 0] == 0 && p[452, 300, 0] == 0)   % the axes box
    endfor
    % flat ranges (x at 1e22: widened by a millionth of the value) put the points in the middle
    p = imread(dir + "/plot_extremes_plot5.png")
    assert(p[12 + 439 - round(439 / 2), 40 + round(587 / 2), 2] == 189)
    print "plot_extremes: ok"
endfunction
