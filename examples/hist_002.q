% The two-phase image histogram (seed 002, Annexstein, chapter 5, "3 approaches to
% histograms", written in Quasar). Phase 1: each block of threads counts its region of
% the RGB image into its own histogram in global memory, out[g, channel, value] with g
% the block's linear index (histogram_gmem_atomics). Phase 2: a second kernel adds the
% per-block histograms into the final one.
% Prints the three 256-bin histograms ("red: [...]", "green: ...", "blue: ...") and writes
% them as a plot (red, green and blue bars) to OUTPUT.
% Run: oq run examples/hist_002.q [INPUT [OUTPUT [SIZE]]]
% Blocks are 8 x 16 pixels: lib/gallery.q crops the sides to multiples of 8, and the
% width here to a multiple of 16.
import "lib/gallery.q"

function [] = __kernel__ histogram_gmem_atomics(img : cube, out : cube, pos : ivec2, _
        blkidx : ivec2, blkcnt : ivec2)
    g = blkidx[0] * blkcnt[1] + blkidx[1]          % the block's linear index
    r = img[pos[0], pos[1], 0]
    gr = img[pos[0], pos[1], 1]
    b = img[pos[0], pos[1], 2]
    out[g, 0, r] += 1
    out[g, 1, gr] += 1
    out[g, 2, b] += 1
endfunction

function [] = __kernel__ histogram_final(out : cube, hist : mat, pos : ivec2)
    total = 0
    for g = 0..size(out, 0)-1
        total += out[g, pos[0], pos[1]]
    endfor
    hist[pos] = total
endfunction

function [] = main(input = "examples/data/chelsea.png", output = "build/examples/hist_002.png", size_ = 0)
    img = load_image(input, size_)
    [H, W] = size(img, 0..1)
    W = W - mod(W, 16)
    img = img[:, 0..W-1, :]
    BH = 8
    BW = 16
    out = zeros((H / BH) * (W / BW), 3, 256)
    parallel_do([[H, W], [BH, BW]], img, out, histogram_gmem_atomics)
    hist = zeros(3, 256)
    parallel_do([3, 256], out, hist, histogram_final)
    print "pixels: ", H * W
    print "red: ", hist[0, :]
    print "green: ", hist[1, :]
    print "blue: ", hist[2, :]
    imwrite(output, draw_histograms(hist, 100))
    print "hist_002: wrote ", output
endfunction
