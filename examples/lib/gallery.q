% Helpers shared by the examples of the gallery (examples/README.md).

% The photograph to work on: imread(path), cropped about its centre to at most
% size x size pixels (size 0: the whole image), each side then rounded down to a
% multiple of 8 so that every example's block shapes and wavelet scales divide it.
% The tests (tests/examples/ref.c) crop the same way.
function x = load_image(path : string, size_ : int)
    x = imread(path)
    h = size(x, 0)
    w = size(x, 1)
    if size_ > 0
        h = min(h, size_)
        w = min(w, size_)
    endif
    h = h - mod(h, 8)
    w = w - mod(w, 8)
    r0 = int((size(x, 0) - h) / 2)
    c0 = int((size(x, 1) - w) / 2)
    x = x[r0..r0+h-1, c0..c0+w-1, :]
endfunction

% Gray values (the mean of the colour channels) of an h x w x c image, as a matrix.
function g = to_gray(x : cube)
    g = zeros(size(x, 0), size(x, 1))
    parallel_do(size(g), x, g, __kernel__ (x : cube, g : mat, pos : ivec2) -> _
        g[pos] = (x[pos[0], pos[1], 0] + x[pos[0], pos[1], 1] + x[pos[0], pos[1], 2]) / 3)
endfunction

% A bar plot of the histograms h (nh x nbins, one per row), height rows tall: bars of
% histogram c are drawn in channel c of an height x nbins x nh image (white for one
% histogram, red/green/blue for three), scaled so that the largest count fills the plot.
% Bin b of histogram c lights row r when height-1-r < h[c,b] / top * height.
function plot = draw_histograms(h : mat, height : int)
    plot = zeros(height, size(h, 1), size(h, 0))
    top = max(h)
    parallel_do(size(plot), plot, h, top, __kernel__ (plot : cube, h : mat, top : scalar, pos : ivec3) -> _
        plot[pos] = (size(plot,0) - 1 - pos[0]) < h[pos[2], pos[1]] / top * size(plot,0) ? 255 : 0)
endfunction
