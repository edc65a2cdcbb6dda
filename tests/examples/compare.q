% oq run tests/examples/compare.q A B TOL: compares two images of one size (any format
% imread reads; netpbm in NO_IMAGES builds) and prints the largest difference and how
% many samples differ by more than TOL. Used by tests/examples/gpu.sh (CPU against GPU).
function [] = main(a : string, b : string, tol = 0)
    x = imread(a)
    y = imread(b)
    if numel(x) != numel(y) || size(x, 0) != size(y, 0) || size(x, 1) != size(y, 1)
        print "compare: ", a, " and ", b, " differ in size: ", size(x), " ", size(y)
        return
    endif
    d = abs(x - y)
    printf("compare: largest difference %g, %d of %d samples beyond %g\n", max(d), sum(d > tol), numel(d), tol)
endfunction
