% A 2048-bin histogram whose bins saturate at a cap (seed 004, Gut & Litarowicz, lab 8,
% written in Quasar): each update is `+=` followed by `__=` (atomic minimum), as the CUDA
% code does with atomicAdd then atomicMin; the bins are uint16 as in the seed. A naive
% kernel on the global histogram, and a kernel with a per-block histogram in shared
% memory that is then added to the global one (saturating again).
% The data: each pixel's bin is 8 * red + green / 32 (0..2047). Prints both histograms
% ("naive: [...]", "shared: [...]", 2048 counts each) and plots the shared one to OUTPUT.
% Run: oq run examples/hist_004.q [INPUT [OUTPUT [SIZE [CAP]]]]   (CAP default 65535)
import "lib/gallery.q"

NBINS = 2048

function [] = __kernel__ naive_histogram(data : vec, hist : vec[uint16], cap : int, pos : int)
    v = data[pos]
    hist[v] += 1
    hist[v] __= cap                  % saturation
endfunction

function [] = __kernel__ shared_histogram(data : vec, hist : vec[uint16], cap : int, nbins : int, _
        pos : int, blkpos : int, blkdim : int)
    local = shared(nbins)
    for i = blkpos..blkdim..nbins-1
        local[i] = 0
    endfor
    syncthreads
    v = data[pos]
    local[v] += 1
    local[v] __= cap
    syncthreads
    for j = blkpos..blkdim..nbins-1
        if local[j] > 0
            hist[j] += local[j]
            hist[j] __= cap
        endif
    endfor
endfunction

function [] = main(input = "examples/data/chelsea.png", output = "build/examples/hist_004.png", size_ = 0, cap = 65535)
    img = load_image(input, size_)
    [H, W] = size(img, 0..1)
    data = zeros(H * W)
    parallel_do([H, W], img, data, __kernel__ (img : cube, data : vec, pos : ivec2) -> _
        data[pos[0] * size(img, 1) + pos[1]] = 8 * img[pos[0], pos[1], 0] + floor(img[pos[0], pos[1], 1] / 32))
    h1 = vec[uint16](NBINS)
    parallel_do(numel(data), data, h1, cap, naive_histogram)
    h2 = vec[uint16](NBINS)
    parallel_do(numel(data), data, h2, cap, NBINS, shared_histogram)
    print "pixels: ", H * W
    print "naive: ", h1
    print "shared: ", h2
    imwrite(output, draw_histograms(reshape(h2, [1, NBINS]), 100))
    print "hist_004: wrote ", output
endfunction
