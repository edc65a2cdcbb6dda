% bench/imfilter_bench.q: lib/imfilter.q's imfilter (5 x 5 mask) and gaussian_filter (sigma
% 1: 7 taps, one pass) on a 2048 x 2048 x 3 image, against a copy pass (read + write of the
% same bytes, in the launch shape of the 3-D image and in the flat one of the filters); on
% the GPU the library's tiled kernels, and for comparison the fixed-size kernels (the CPU's)
% and the general ones (any size), each in a loop of its own. bench/imfilter.sh runs it with
% --profile and reads each kernel's time from the profile table (device time on CUDA: the
% launcher's events), and without it for the wall time of each loop (tic/toc, printed).
% Run: oq run --target cpu|cuda [--profile] bench/imfilter_bench.q [REPS]
import "imfilter.q"

function [] = __kernel__ bench_fill(x : cube'unchecked, pos : ivec3)
    x[pos] = mod(pos[0] * 7 + pos[1] * 3 + pos[2] * 11, 251)
endfunction

function [] = __kernel__ bench_copy(x : cube'unchecked, y : cube'unchecked, pos : ivec3)
    y[pos] = x[pos]
endfunction

% the same copy with the fixed kernels' thread mapping (flat columns, 64-multiple rows)
function [] = __kernel__ bench_copy_flat(x : cube'unchecked, y : cube'unchecked, wc : int, _
        pos : ivec2)
    y[pos[0] * wc + pos[1]] = x[pos[0] * wc + pos[1]]
endfunction

function [] = main(reps = 10)
    x = zeros(2048, 2048, 3)
    parallel_do(size(x), x, bench_fill)
    [h, w, nc] = [2048, 2048, 3]
    y = zeros(size(x))
    mask = ones(5, 5) / 25
    taps = reshape(mask, [25])
    g = gaussian_taps(1)
    y1 = zeros(size(x))
    y2 = zeros(size(x))
    y3 = zeros(size(x))
    y4 = zeros(size(x))
    d = fixed_dims(x)
    a = imfilter(x, mask, [2, 2], "clamped")
    b = gaussian_filter(x, 1, 0, "clamped")
    % every kernel once before the loops, so that no loop's time holds a compilation
    parallel_do(size(x), x, y, bench_copy)
    parallel_do([2048, 6144], x, y, 6144, bench_copy_flat)
    parallel_do(d, x, y1, taps, 2, 2, h, w, nc, w * nc, 3, imfilter_5x5)
    parallel_do(d, x, y2, g, 3, g, 3, h, w, nc, w * nc, 3, separable_7)
    print "reps ", reps
    tic()
    for r = 1..reps
        parallel_do(size(x), x, y, bench_copy)
    endfor
    toc("loop copy")
    tic()
    for r = 1..reps
        parallel_do([2048, 6144], x, y, 6144, bench_copy_flat)
    endfor
    toc("loop copy_flat")
    tic()
    for r = 1..reps
        a = imfilter(x, mask, [2, 2], "clamped")
    endfor
    toc("loop imfilter")
    tic()
    for r = 1..reps
        b = gaussian_filter(x, 1, 0, "clamped")
    endfor
    toc("loop gaussian_filter")
    tic()
    for r = 1..reps
        parallel_do(d, x, y1, taps, 2, 2, h, w, nc, w * nc, 3, imfilter_5x5)
    endfor
    toc("loop fixed imfilter_5x5")
    tic()
    for r = 1..reps
        parallel_do(d, x, y2, g, 3, g, 3, h, w, nc, w * nc, 3, separable_7)
    endfor
    toc("loop fixed separable_7")
    % the general kernels (any mask size) on the same image, for comparison
    for r = 1..reps
        parallel_do([256, 2048, 3], x, y3, taps, 5, 5, 2, 2, 2048, 2048, 3, imfilter_kernel)
        parallel_do([256, 2048, 3], x, y4, g, 3, g, 3, 2048, 2048, 3, separable_kernel)
    endfor
    assert(max(abs(y3 - a)) < 1e-3 && max(abs(y4 - b)) < 1e-3)
    assert(max(abs(y1 - a)) < 1e-3 && max(abs(y2 - b)) < 1e-3)
    % a check that the filters ran: interior pixels against closed forms
    s = 0.0
    for m = -2..2
        for n = -2..2
            s += x[100 + m, 200 + n, 1]
        endfor
    endfor
    assert(abs(a[100, 200, 1] - s / 25) < 1e-2)
    assert(abs(y[7, 9, 2] - x[7, 9, 2]) == 0)
    print "checksum ", a[100, 200, 1], " ", b[100, 200, 1]
endfunction
