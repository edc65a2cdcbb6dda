% CHECK: parse-only (fragment: hist_naive, hist_auto, hist_shared are defined in the other listings of seed 000)
% From seed 000 (Tutorial 6: Advanced GPU programming), lines 140-166: the test program
function [] = main()

    im = imread("image.tif")
    num_runs = 1000

    tic()
    for run=0..num_runs-1
        y = hist_naive(im)
    endfor
    toc("Naive algorithm")
    print sum(y)/numel(im)

    tic()
    for run=0..num_runs-1
        y = hist_auto(im)
    endfor
    toc("Auto algorithm")
    print sum(y)/numel(im)

    tic()
    for run=0..num_runs-1
        y = hist_shared(im)
    endfor
    toc("Hand-written algorithm")


endfunction
