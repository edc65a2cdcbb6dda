% The dot product with a shared cache (seed 002, Annexstein, chapter 5: the CUDA `dot`
% kernel written in Quasar): threads stride over the vectors by the total thread count,
% each block halves its cache recursively and writes c[blkidx]; the host adds the block
% results. Here the vectors are the red and green channels of the photograph; it prints
% their dot product and the correlation coefficient of the two channels.
% Run: oq run examples/dot.q [INPUT [SIZE]]
import "lib/gallery.q"

function [] = __kernel__ dot(a : vec, b : vec, c : vec, pos : int, blkpos : int, _
        blkdim : int, blkidx : int, blkcnt : int)
    cache = shared(blkdim)
    tid = pos
    temp = 0.0
    while tid < numel(a)
        temp += a[tid] * b[tid]
        tid += blkdim * blkcnt
    endwhile
    cache[blkpos] = temp
    syncthreads
    % recursive halving: add pairs of values offset by powers of two
    offset = int(blkdim / 2)
    while offset != 0
        if blkpos < offset
            cache[blkpos] += cache[blkpos + offset]
        endif
        syncthreads
        offset /= 2
    endwhile
    if blkpos == 0
        c[blkidx] = cache[0]
    endif
endfunction

% 32 blocks of 256 threads, as the seed's blocksPerGrid x threadsPerBlock
function s = dot_product(a, b)
    c = zeros(32)
    parallel_do([[32 * 256], [256]], a, b, c, dot)
    s = 0.0
    for k = 0..31
        s += c[k]
    endfor
endfunction

function [] = main(input = "examples/data/chelsea.png", size_ = 0)
    x = load_image(input, size_)
    n = size(x, 0) * size(x, 1)
    r = reshape(x[:, :, 0], [n])
    g = reshape(x[:, :, 1], [n])
    rg = dot_product(r, g)
    rr = dot_product(r, r)
    gg = dot_product(g, g)
    sr = sum(r)
    sg = sum(g)
    corr = (n * rg - sr * sg) / sqrt((n * rr - sr * sr) * (n * gg - sg * sg))
    printf("pixels: %d\n", n)
    printf("dot(red, green): %.1f\n", rg)
    printf("dot(red, red): %.1f\n", rr)
    printf("correlation(red, green): %.6f\n", corr)
endfunction
