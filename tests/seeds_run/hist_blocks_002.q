% Seed 002 (Annexstein, ch. 5) written in Quasar: the two-phase image histogram. Phase 1:
% each block of threads counts its region of an RGB image into its own histogram in global
% memory, out[g, channel, value] with g the block's linear index (histogram_gmem_atomics).
% Phase 2: a second kernel adds the per-block histograms into the final one. Both phases
% against host counts.

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

H = 24
W = 32
BH = 8
BW = 16
img = zeros(H, W, 3)
for m = 0..H-1
    for n = 0..W-1
        for c = 0..2
            img[m, n, c] = mod(m * m + 3 * n + 85 * c + (m - n) * c, 256)
        endfor
    endfor
endfor

nblk = (H / BH) * (W / BW)
out = zeros(nblk, 3, 256)
parallel_do([[H, W], [BH, BW]], img, out, histogram_gmem_atomics)
final = ones(3, 256) * -1
parallel_do([3, 256], out, final, histogram_final)

% phase 1: each block's histogram counts exactly the pixels of its region
for bi = 0..H/BH-1
    for bj = 0..W/BW-1
        g = bi * (W / BW) + bj
        ref = zeros(3, 256)
        for m = bi * BH..(bi + 1) * BH - 1
            for n = bj * BW..(bj + 1) * BW - 1
                for c = 0..2
                    ref[c, img[m, n, c]] = ref[c, img[m, n, c]] + 1
                endfor
            endfor
        endfor
        for c = 0..2
            for v = 0..255
                assert(out[g, c, v] == ref[c, v])
            endfor
        endfor
    endfor
endfor

% phase 2: the whole-image histogram of each channel
ref = zeros(3, 256)
for m = 0..H-1
    for n = 0..W-1
        for c = 0..2
            ref[c, img[m, n, c]] = ref[c, img[m, n, c]] + 1
        endfor
    endfor
endfor
for c = 0..2
    s = 0
    for v = 0..255
        assert(final[c, v] == ref[c, v])
        s += final[c, v]
    endfor
    assert(s == H * W)
endfor
print "hist_blocks_002: ok"
