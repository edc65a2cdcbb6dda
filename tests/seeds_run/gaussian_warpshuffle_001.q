% Seed 001 (Quasar - CUDA Support GUIDE, "Warp shuffling operations"): the "Gaussian filter"
% whose threads cache image values in registers and read their neighbours' by warp shuffles,
% as written. What the code computes (tested here), rather than a centred Gaussian: with
% blocks of 32 x 32 x 1 a warp is one row of a block (32 consecutive columns), and lane j's
% shuffles read x_warp of lane l = mod(j + i, 32), component k = floor((j + i) / 32), which
% is x[r, c + i, ch]. So the first pass is z[r, c, ch] = sum_i fc[i] x[r, c + i, ch], the
% second (positions transposed in each 32 x 32 tile, after the grid barrier) is
% y[r, c, ch] = sum_i fc[i] z[r + i, c, ch]: a separable correlation over offsets 0..n-1
% (not centred), reading 0 outside the image. It needs n <= 33 (N = 2) and height and
% width multiples of 32 (pos2 must stay inside y'unchecked). Values are small integers, so
% the sums are exact. {!kernel target="nvidia_cuda"} is ignored: the C back end compiles
% neither its grid barrier nor its shuffles, so on the CPU it runs in the interpreter; the
% CUDA back end compiles it.

function y = gaussian_filter_warpshuffle(x, fc, n)
    function [] = __kernel__ gaussian_filter[N:int](x : cube, y : cube'unchecked, z : cube, fc : vec'hwconst'unchecked, n : int, coalesced_threads : thread_block,  pos : vec3)
        {!kernel target="nvidia_cuda"}
        thread_idx = coalesced_threads.thread_idx
        x_warp = zeros(N)
        for i=0..N-1
            {!unroll}
            x_warp[i] = x[pos + [0, i * coalesced_threads.size, 0]]
        endfor
        syncthreads(warp)
        total = 0.0
        for i=0..n-1
            [k,l] = ind2pos([2, coalesced_threads.size], thread_idx+i)
            val = coalesced_threads.shfl(x_warp, l)
            total += val[k] * fc[i]
        endfor
        z[pos] = total % Intermediate result

        syncthreads(grid)
        % Shuffle pos
        blkpos = mod(pos, [32,32,1])
        pos2 = pos - blkpos + [blkpos[1], blkpos[0], 0]

        for i=0..N-1
            {!unroll}
            x_warp[i] = z[pos2 + [i * coalesced_threads.size, 0, 0]]
        endfor
        syncthreads(warp)
        total = 0.0
        for i=0..n-1
            [k,l] = ind2pos([2, coalesced_threads.size], thread_idx+i)
            val = coalesced_threads.shfl(x_warp, l)
            total += val[k] * fc[i]
        endfor
        y[pos2] = total
    endfunction
    y = uninit(size(x))
    z = uninit(size(y))
    parallel_do([size(y,0..2),[32,32,1]], x, y, z, fc, n, gaussian_filter[2])
endfunction

% the reference: both passes by serial loops (while loops are never parallelized)
function y = correlate_rows_cols(x : cube, fc : vec, n : int)
    z = zeros(size(x))
    y = zeros(size(x))
    for pass = 0..1
        src = pass == 0 ? x : z
        dst = pass == 0 ? z : y
        r = 0
        while r < size(x, 0)
            c = 0
            while c < size(x, 1)
                ch = 0
                while ch < size(x, 2)
                    s = 0.0
                    i = 0
                    while i < n
                        rr = r + pass * i
                        cc = c + (1 - pass) * i
                        if rr < size(x, 0) && cc < size(x, 1)
                            s += fc[i] * src[rr, cc, ch]
                        endif
                        i += 1
                    endwhile
                    dst[r, c, ch] = s
                    ch += 1
                endwhile
                c += 1
            endwhile
            r += 1
        endwhile
    endfor
endfunction

function x = test_image(h : int, w : int, nch : int)
    x = zeros(h, w, nch)
    r = 0
    while r < h
        c = 0
        while c < w
            ch = 0
            while ch < nch
                x[r, c, ch] = mod(r * 7 + c * 3 + ch * 5, 17)
                ch += 1
            endwhile
            c += 1
        endwhile
        r += 1
    endwhile
endfunction

function [] = check(x : cube, fc : vec)
    n = numel(fc)
    y = gaussian_filter_warpshuffle(x, fc, n)
    want = correlate_rows_cols(x, fc, n)
    assert(sum(abs(want)) > 0)   % a kernel that writes nothing fails
    assert(size(y) == size(want))
    assert(sum(abs(y - want)) == 0)
    print "n=", n, ": ", y[10, 20..23, 1], " (reference ", want[10, 20..23, 1], ")"
endfunction

x = test_image(64, 96, 2)
check(x, [1, 2, 4, 2, 1])
check(x, [3, -1, 2, 5, 1, 1, 2, 4, -2, 1, 3])
