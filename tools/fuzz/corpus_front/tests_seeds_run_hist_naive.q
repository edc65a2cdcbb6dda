% Seed 000 (Tutorial 6: Advanced GPU programming): hist_naive, the straightforward implementation.
% The seed code verbatim,
% then a driver that compares with a plain host count on a generated 64x48x3 image.

function y = hist_naive(im : cube)
    y = zeros(256)
    for m=0..size(im,0)-1
        for n=0..size(im,1)-1
            for k=0..size(im,2)-1
                v = im[m,n,k]
                y[v] += 1
            endfor
        endfor
    endfor
endfunction

% ---- test driver ----
% a 64x48x3 test image with integer values 0..255
function im = test_image()
    im = zeros(64, 48, 3)
    for m = 0..63
        for n = 0..47
            for k = 0..2
                im[m, n, k] = mod(7 * m * m + 13 * n + 101 * k + m * n, 256)
            endfor
        endfor
    endfor
endfunction

% the reference: a plain count
function h = host_count(im)
    h = zeros(256)
    for m = 0..size(im, 0)-1
        for n = 0..size(im, 1)-1
            for k = 0..size(im, 2)-1
                h[im[m, n, k]] = h[im[m, n, k]] + 1
            endfor
        endfor
    endfor
endfunction

function [] = check_hist(y, ref, total)
    assert(numel(y) == 256)
    s = 0
    for b = 0..255
        assert(y[b] == ref[b])
        s += y[b]
    endfor
    assert(s == total)
endfunction

function [] = main()
    im = test_image()
    y = hist_naive(im)
    check_hist(y, host_count(im), numel(im))
    print "hist_naive: ok"
endfunction
