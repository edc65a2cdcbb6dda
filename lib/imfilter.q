% imfilter.q: linear filtering of images, shipped with OpenQuasar.
% import "imfilter.q" finds this file in OpenQuasar's lib/ folder (it imports imboundary.q,
% so padarray and fftshift2 come with it).
%
%   y = imfilter(x, mask, ctr, boundary)        correlation of every channel with mask
%   y = imfilter(x, mask, boundary)             the same with the default centre
%   y = gaussian_filter(x, sigma, fsize, boundary)  separable Gaussian blur
%   y = box_filter(x, fsize, boundary)          separable mean over fsize = n or [rows, cols]
%   g = gaussian_taps(sigma, fsize)             the normalized 1-D Gaussian
%
% x is a matrix (one channel), a cube (h x w x c: each channel alone) or a vec (a 1 x N row).
% y[i,j,k] = sum over m,n of x[i+m-ctr[0], j+n-ctr[1], k] * mask[m,n]: correlation, as
% MATLAB's imfilter and Quasar's. ctr defaults to [floor(rows/2), floor(cols/2)]; published
% code passes ceil(size(mask)/2)-1 (MATLAB's centre). boundary is a string (imboundary.q):
% "clamped" (the default: flat images stay flat), "zero"/"safe", "mirror", "circular",
% "symmetric". A vec mask is a 1 x N row (Quasar's rule): imfilter(x, [1,2,1]/4) filters
% along each row, imfilter(x, transpose([1,2,1]/4)) along each column.
import "imboundary.q"

% The mask as rows x cols and its centre; errors name the caller.
function [rows : int, cols : int, cy : int, cx : int] = mask_shape(mask, ctr, caller : string)
    if isscalar(mask)
        rows = 1
        cols = 1
    else
        if numel(size(mask)) > 2
            error(caller, ": the mask must be a vector or a matrix, not of size ", size(mask))
        endif
        rows = numel(size(mask)) == 1 ? 1 : size(mask, 0)
        cols = int(numel(mask) / rows)
    endif
    if rows == 0 || cols == 0
        error(caller, ": the mask is empty")
    endif
    if isscalar(ctr) && ctr == -1
        cy = int(floor(rows / 2))
        cx = int(floor(cols / 2))
    elseif numel(ctr) == 1 && rows == 1
        cy = 0
        cx = int(isscalar(ctr) ? ctr : ctr[0])
    elseif numel(ctr) == 2
        cy = int(ctr[0])
        cx = int(ctr[1])
    else
        error(caller, ": the centre must be [row, col] of the mask, not ", ctr)
        cy = 0
        cx = 0
    endif
endfunction

function [] = check_image(x, caller : string)
    if isscalar(x) || numel(size(x)) > 3
        error(caller, ": the image must be a vec, a matrix or a cube")
    endif
    if numel(x) == 0
        error(caller, ": the image is empty")
    endif
endfunction

% Each thread computes 8 output rows of one column and channel (rows 8*pos[0] .. +7): an
% input row it reads serves every output row whose window holds it, so a 5 x 5 mask costs
% 7.5 reads per output instead of 25 (the reads, not the arithmetic, bound a filter).
% The taps live in constant memory on the GPU ('hwconst: every thread reads the same tap).
% Indices outside the image go through the boundary rule (bnd_index: -1 is a zero sample);
% columns are read directly when the whole window lies inside.
function [] = __kernel__ imfilter_kernel(x : cube'unchecked, y : cube'unchecked'nocopy, _
        mask : vec'unchecked'hwconst, rows : int, cols : int, cy : int, cx : int, _
        h : int, w : int, mode : int, pos : ivec3)
    i0 = 8 * pos[0]
    j0 = pos[1] - cx
    c = pos[2]
    inside = j0 >= 0 && j0 + cols <= w
    a0 = 0.0
    a1 = 0.0
    a2 = 0.0
    a3 = 0.0
    a4 = 0.0
    a5 = 0.0
    a6 = 0.0
    a7 = 0.0
    for r = 0..rows+6
        i = bnd_index(i0 + r - cy, h, mode)
        if i >= 0
            for n = 0..cols-1
                j = inside ? j0 + n : bnd_index(j0 + n, w, mode)
                if j >= 0
                    v = x[i, j, c]
                    if r < rows
                        a0 += mask[r*cols + n] * v
                    endif
                    if r >= 1 && r < rows + 1
                        a1 += mask[(r-1)*cols + n] * v
                    endif
                    if r >= 2 && r < rows + 2
                        a2 += mask[(r-2)*cols + n] * v
                    endif
                    if r >= 3 && r < rows + 3
                        a3 += mask[(r-3)*cols + n] * v
                    endif
                    if r >= 4 && r < rows + 4
                        a4 += mask[(r-4)*cols + n] * v
                    endif
                    if r >= 5 && r < rows + 5
                        a5 += mask[(r-5)*cols + n] * v
                    endif
                    if r >= 6 && r < rows + 6
                        a6 += mask[(r-6)*cols + n] * v
                    endif
                    if r >= 7
                        a7 += mask[(r-7)*cols + n] * v
                    endif
                endif
            endfor
        endif
    endfor
    store8(y, i0, pos[1], c, h, a0, a1, a2, a3, a4, a5, a6, a7)
endfunction

% The 8 results of a thread, the rows past the image left out.
function [] = __device__ store8(y : cube'unchecked, i0 : int, j : int, c : int, h : int, _
        a0 : scalar, a1 : scalar, a2 : scalar, a3 : scalar, a4 : scalar, a5 : scalar, _
        a6 : scalar, a7 : scalar)
    y[i0, j, c] = a0
    if i0 + 1 < h
        y[i0 + 1, j, c] = a1
    endif
    if i0 + 2 < h
        y[i0 + 2, j, c] = a2
    endif
    if i0 + 3 < h
        y[i0 + 3, j, c] = a3
    endif
    if i0 + 4 < h
        y[i0 + 4, j, c] = a4
    endif
    if i0 + 5 < h
        y[i0 + 5, j, c] = a5
    endif
    if i0 + 6 < h
        y[i0 + 6, j, c] = a6
    endif
    if i0 + 7 < h
        y[i0 + 7, j, c] = a7
    endif
endfunction

% ---- Fixed-size kernels: masks of 3x3, 5x5 and 7x7, separable filters of 3 to 13 taps ----
% Written by tools/gen_imfilter_fixed.py (edit it there, then paste its output here).
% The general kernels above take their sizes at run time, so every "does input row r reach
% output row k" test and every tap index is computed per tap: on a GPU they are bound by
% instructions, not memory (imfilter 5x5 ran at 13-15 % of a copy's bandwidth on an H200
% and an H100). These kernels are written for literal sizes through the macros below: each
% macro call is expanded with literal row and tap numbers (no loops: NVRTC does not unroll
% ours), so its tests fold at compile time and the taps and accumulators stay in registers.
% The image is read as rows of wc = w*nc numbers (channels fastest): a thread owns the flat
% column q = j*nc + c, so a warp reads and writes consecutive numbers whatever the channel
% count; the launch's columns are rounded up to 64 (the launcher's blocks divide the
% extent) and the extra threads do nothing. A thread computes K consecutive output rows
% (K = fixed_rows() = 8, literal; the macros take K up to 8): each input row of their
% windows is read once. Three paths: a window inside the image reads without the boundary
% rule (the separable kernels without any branch: one straight block, so the loads of
% many rows are in flight together; the 2-D ones keep a test per row, which measured
% 1.4x faster on an H100 than their straight block); a window whose columns are inside
% but rows cross the top or bottom takes the rule once per row; a column whose window
% crosses the left or right edge (a few threads per row) runs plain loops through the
% rule per tap (edge_at), with accumulators of its own (indexed at run time, they would
% send the others to local memory).

% The sample at row i (already inside), column j (any) and channel c, by the boundary rule.
function v = __device__ edge_at(x : cube'unchecked, i : int, j : int, c : int, w : int, _
        nc : int, wc : int, mode : int)
    v = 0.0
    jj = bnd_index(j, w, mode)
    if jj >= 0
        v = x[i * wc + jj * nc + c]
    endif
endfunction

% What every fixed-size kernel starts with: the thread's column, its first output row,
% whether its columns (cols) and its rows (rows) lie inside, and zeroed accumulators.
macro [] = fixed_start(C, R, K)
    q = pos[1]
    i0 = K * pos[0]
    cols = q >= cx * nc && q + (C - 1 - cx) * nc < wc
    rows = i0 - cy >= 0 && i0 + K - 1 + R - 1 - cy < h
    a = zeros(K)
endmacro

% The stores of the K outputs of a thread from acc (the rows past the image left out).
macro [] = fixed_store(acc, K)
    if 0 < K && i0 + 0 < h
        y[(i0 + 0) * wc + q] = acc[0]
    endif
    if 1 < K && i0 + 1 < h
        y[(i0 + 1) * wc + q] = acc[1]
    endif
    if 2 < K && i0 + 2 < h
        y[(i0 + 2) * wc + q] = acc[2]
    endif
    if 3 < K && i0 + 3 < h
        y[(i0 + 3) * wc + q] = acc[3]
    endif
    if 4 < K && i0 + 4 < h
        y[(i0 + 4) * wc + q] = acc[4]
    endif
    if 5 < K && i0 + 5 < h
        y[(i0 + 5) * wc + q] = acc[5]
    endif
    if 6 < K && i0 + 6 < h
        y[(i0 + 6) * wc + q] = acc[6]
    endif
    if 7 < K && i0 + 7 < h
        y[(i0 + 7) * wc + q] = acc[7]
    endif
endmacro

% The column of a thread whose window crosses the left or right edge: loops, the boundary
% rule per tap, accumulators e (indexed at run time, so apart from a).
macro [] = fir_edge(R, C, K)
    j = q
    j /= nc
    c = q - j * nc
    e = zeros(K)
    for r = 0..R+K-2
        i = bnd_index(i0 + r - cy, h, mode)
        if i >= 0
            for m = max(0, r - K + 1)..min(R - 1, r)
                s = 0.0
                for n = 0..C-1
                    s += mask[m * C + n] * edge_at(x, i, j + n - cx, c, w, nc, wc, mode)
                endfor
                e[r - m] += s
            endfor
        endif
    endfor
    fixed_store(e, K)
endmacro

% Row m of an R x C mask into the registers tm (m, R, C literal).
macro [] = fir_taps(m, tm, R, C)
    if m < R
        if 0 < C
            tm[0] = mask[m * C + 0]
        endif
        if 1 < C
            tm[1] = mask[m * C + 1]
        endif
        if 2 < C
            tm[2] = mask[m * C + 2]
        endif
        if 3 < C
            tm[3] = mask[m * C + 3]
        endif
        if 4 < C
            tm[4] = mask[m * C + 4]
        endif
        if 5 < C
            tm[5] = mask[m * C + 5]
        endif
        if 6 < C
            tm[6] = mask[m * C + 6]
        endif
    endif
endmacro

% The C samples of row i from the thread's window's first column into v (NC: the channel
% count, a literal in a kernel for one, so that the offsets are constants).
macro [] = fir_load(C, NC)
    base = i * wc + q - cx * NC
    if 0 < C
        v[0] = x[base]
    endif
    if 1 < C
        v[1] = x[base + NC]
    endif
    if 2 < C
        v[2] = x[base + 2 * NC]
    endif
    if 3 < C
        v[3] = x[base + 3 * NC]
    endif
    if 4 < C
        v[4] = x[base + 4 * NC]
    endif
    if 5 < C
        v[5] = x[base + 5 * NC]
    endif
    if 6 < C
        v[6] = x[base + 6 * NC]
    endif
endmacro

% Input row r times mask row m (taps tm) into output row r - m, when it reaches one.
macro [] = fir_acc(r, m, tm, R, C, K)
    if m < R && r - m >= 0 && r - m < K
        s = tm[0] * v[0]
        if 1 < C
            s += tm[1] * v[1]
        endif
        if 2 < C
            s += tm[2] * v[2]
        endif
        if 3 < C
            s += tm[3] * v[3]
        endif
        if 4 < C
            s += tm[4] * v[4]
        endif
        if 5 < C
            s += tm[5] * v[5]
        endif
        if 6 < C
            s += tm[6] * v[6]
        endif
        a[r - m] += s
    endif
endmacro

% Input row r of the window (R + K - 1 rows), added to every output row it reaches;
% the row by the boundary rule (rule) or directly.
macro [] = fir_row(r, R, C, K, rule, NC)
    if r < R + K - 1
        i = i0 + r - cy
        if rule
            i = bnd_index(i, h, mode)
        endif
        if !rule || i >= 0
            fir_load(C, NC)
            fir_acc(r, 0, t0, R, C, K)
            fir_acc(r, 1, t1, R, C, K)
            fir_acc(r, 2, t2, R, C, K)
            fir_acc(r, 3, t3, R, C, K)
            fir_acc(r, 4, t4, R, C, K)
            fir_acc(r, 5, t5, R, C, K)
            fir_acc(r, 6, t6, R, C, K)
        endif
    endif
endmacro

% The body of a correlation with an R x C mask (R, C at most 7), K rows a thread.
macro [] = fir2d_body(R, C, K, NC)
    fixed_start(C, R, K)
    if q < wc && !cols
        fir_edge(R, C, K)
    elseif q < wc
        t0 = zeros(7)
        t1 = zeros(7)
        t2 = zeros(7)
        t3 = zeros(7)
        t4 = zeros(7)
        t5 = zeros(7)
        t6 = zeros(7)
        fir_taps(0, t0, R, C)
        fir_taps(1, t1, R, C)
        fir_taps(2, t2, R, C)
        fir_taps(3, t3, R, C)
        fir_taps(4, t4, R, C)
        fir_taps(5, t5, R, C)
        fir_taps(6, t6, R, C)
        v = zeros(7)
        if rows
            fir_row(0, R, C, K, false, NC)
            fir_row(1, R, C, K, false, NC)
            fir_row(2, R, C, K, false, NC)
            fir_row(3, R, C, K, false, NC)
            fir_row(4, R, C, K, false, NC)
            fir_row(5, R, C, K, false, NC)
            fir_row(6, R, C, K, false, NC)
            fir_row(7, R, C, K, false, NC)
            fir_row(8, R, C, K, false, NC)
            fir_row(9, R, C, K, false, NC)
            fir_row(10, R, C, K, false, NC)
            fir_row(11, R, C, K, false, NC)
            fir_row(12, R, C, K, false, NC)
            fir_row(13, R, C, K, false, NC)
        else
            fir_row(0, R, C, K, true, NC)
            fir_row(1, R, C, K, true, NC)
            fir_row(2, R, C, K, true, NC)
            fir_row(3, R, C, K, true, NC)
            fir_row(4, R, C, K, true, NC)
            fir_row(5, R, C, K, true, NC)
            fir_row(6, R, C, K, true, NC)
            fir_row(7, R, C, K, true, NC)
            fir_row(8, R, C, K, true, NC)
            fir_row(9, R, C, K, true, NC)
            fir_row(10, R, C, K, true, NC)
            fir_row(11, R, C, K, true, NC)
            fir_row(12, R, C, K, true, NC)
            fir_row(13, R, C, K, true, NC)
        endif
        fixed_store(a, K)
    endif
endmacro

% Separable, an edge column: loops, the boundary rule per tap.
macro [] = sep_edge(T, K)
    j = q
    j /= nc
    c = q - j * nc
    e = zeros(K)
    for r = 0..T+K-2
        i = bnd_index(i0 + r - cy, h, mode)
        if i >= 0
            s = 0.0
            for n = 0..T-1
                s += gx[n] * edge_at(x, i, j + n - cx, c, w, nc, wc, mode)
            endfor
            for m = max(0, r - K + 1)..min(T - 1, r)
                e[r - m] += gy[m] * s
            endfor
        endif
    endfor
    fixed_store(e, K)
endmacro

% Separable: input row r filtered along the row (taps tx), then times tap m of ty into
% output row r - m, for each output row it reaches;
% the row by the boundary rule (rule) or directly.
macro [] = sep_row(r, T, K, rule, NC)
    if r < T + K - 1
        i = i0 + r - cy
        if rule
            i = bnd_index(i, h, mode)
        endif
        if !rule || i >= 0
            base = i * wc + q - cx * NC
            s = tx[0] * x[base]
            if 1 < T
                s += tx[1] * x[base + 1 * NC]
            endif
            if 2 < T
                s += tx[2] * x[base + 2 * NC]
            endif
            if 3 < T
                s += tx[3] * x[base + 3 * NC]
            endif
            if 4 < T
                s += tx[4] * x[base + 4 * NC]
            endif
            if 5 < T
                s += tx[5] * x[base + 5 * NC]
            endif
            if 6 < T
                s += tx[6] * x[base + 6 * NC]
            endif
            if 7 < T
                s += tx[7] * x[base + 7 * NC]
            endif
            if 8 < T
                s += tx[8] * x[base + 8 * NC]
            endif
            if 9 < T
                s += tx[9] * x[base + 9 * NC]
            endif
            if 10 < T
                s += tx[10] * x[base + 10 * NC]
            endif
            if 11 < T
                s += tx[11] * x[base + 11 * NC]
            endif
            if 12 < T
                s += tx[12] * x[base + 12 * NC]
            endif
            if 0 < T && r - 0 >= 0 && r - 0 < K
                a[r - 0] += ty[0] * s
            endif
            if 1 < T && r - 1 >= 0 && r - 1 < K
                a[r - 1] += ty[1] * s
            endif
            if 2 < T && r - 2 >= 0 && r - 2 < K
                a[r - 2] += ty[2] * s
            endif
            if 3 < T && r - 3 >= 0 && r - 3 < K
                a[r - 3] += ty[3] * s
            endif
            if 4 < T && r - 4 >= 0 && r - 4 < K
                a[r - 4] += ty[4] * s
            endif
            if 5 < T && r - 5 >= 0 && r - 5 < K
                a[r - 5] += ty[5] * s
            endif
            if 6 < T && r - 6 >= 0 && r - 6 < K
                a[r - 6] += ty[6] * s
            endif
            if 7 < T && r - 7 >= 0 && r - 7 < K
                a[r - 7] += ty[7] * s
            endif
            if 8 < T && r - 8 >= 0 && r - 8 < K
                a[r - 8] += ty[8] * s
            endif
            if 9 < T && r - 9 >= 0 && r - 9 < K
                a[r - 9] += ty[9] * s
            endif
            if 10 < T && r - 10 >= 0 && r - 10 < K
                a[r - 10] += ty[10] * s
            endif
            if 11 < T && r - 11 >= 0 && r - 11 < K
                a[r - 11] += ty[11] * s
            endif
            if 12 < T && r - 12 >= 0 && r - 12 < K
                a[r - 12] += ty[12] * s
            endif
        endif
    endif
endmacro

% The body of a separable filter of T taps each way (T at most 13), K rows a thread.
macro [] = sep_body(T, K, NC)
    fixed_start(T, T, K)
    if q < wc && !cols
        sep_edge(T, K)
    elseif q < wc
        tx = zeros(13)
        ty = zeros(13)
        if 0 < T
            tx[0] = gx[0]
            ty[0] = gy[0]
        endif
        if 1 < T
            tx[1] = gx[1]
            ty[1] = gy[1]
        endif
        if 2 < T
            tx[2] = gx[2]
            ty[2] = gy[2]
        endif
        if 3 < T
            tx[3] = gx[3]
            ty[3] = gy[3]
        endif
        if 4 < T
            tx[4] = gx[4]
            ty[4] = gy[4]
        endif
        if 5 < T
            tx[5] = gx[5]
            ty[5] = gy[5]
        endif
        if 6 < T
            tx[6] = gx[6]
            ty[6] = gy[6]
        endif
        if 7 < T
            tx[7] = gx[7]
            ty[7] = gy[7]
        endif
        if 8 < T
            tx[8] = gx[8]
            ty[8] = gy[8]
        endif
        if 9 < T
            tx[9] = gx[9]
            ty[9] = gy[9]
        endif
        if 10 < T
            tx[10] = gx[10]
            ty[10] = gy[10]
        endif
        if 11 < T
            tx[11] = gx[11]
            ty[11] = gy[11]
        endif
        if 12 < T
            tx[12] = gx[12]
            ty[12] = gy[12]
        endif
        if rows
            sep_row(0, T, K, false, NC)
            sep_row(1, T, K, false, NC)
            sep_row(2, T, K, false, NC)
            sep_row(3, T, K, false, NC)
            sep_row(4, T, K, false, NC)
            sep_row(5, T, K, false, NC)
            sep_row(6, T, K, false, NC)
            sep_row(7, T, K, false, NC)
            sep_row(8, T, K, false, NC)
            sep_row(9, T, K, false, NC)
            sep_row(10, T, K, false, NC)
            sep_row(11, T, K, false, NC)
            sep_row(12, T, K, false, NC)
            sep_row(13, T, K, false, NC)
            sep_row(14, T, K, false, NC)
            sep_row(15, T, K, false, NC)
            sep_row(16, T, K, false, NC)
            sep_row(17, T, K, false, NC)
            sep_row(18, T, K, false, NC)
            sep_row(19, T, K, false, NC)
        else
            sep_row(0, T, K, true, NC)
            sep_row(1, T, K, true, NC)
            sep_row(2, T, K, true, NC)
            sep_row(3, T, K, true, NC)
            sep_row(4, T, K, true, NC)
            sep_row(5, T, K, true, NC)
            sep_row(6, T, K, true, NC)
            sep_row(7, T, K, true, NC)
            sep_row(8, T, K, true, NC)
            sep_row(9, T, K, true, NC)
            sep_row(10, T, K, true, NC)
            sep_row(11, T, K, true, NC)
            sep_row(12, T, K, true, NC)
            sep_row(13, T, K, true, NC)
            sep_row(14, T, K, true, NC)
            sep_row(15, T, K, true, NC)
            sep_row(16, T, K, true, NC)
            sep_row(17, T, K, true, NC)
            sep_row(18, T, K, true, NC)
            sep_row(19, T, K, true, NC)
        endif
        fixed_store(a, K)
    endif
endmacro

% ---- GPU tiles: the same filters for --target cuda ----
% On a GPU the kernels above leave the memory idle much of the time (50-75 % of a copy's
% bandwidth at best): every thread reads its window's columns from L1, each load a warp's
% 32 numbers at an offset of nc, most of them two cache lines. Here a block of 128 threads
% computes a tile of 8 rows x 128 flat columns: each thread reads a column of the tile
% (and one of the halo, the (C-1)*nc columns the windows reach past the tile, when t is
% below its width) straight down, a warp's loads aligned and coalesced, with the boundary
% rule for the column once; the rows go into block-shared memory, from which each thread
% takes its window's samples (consecutive threads, consecutive numbers: no bank
% conflicts). The separable filters filter each column down (taps gy) before the shared
% memory, so only 8 rows go there, then along the rows (gx). Rows of 192 numbers hold a
% halo of at most 64 flat columns; wider ones (many channels and taps) take the
% kernels above. Written for literal sizes like them.

% The flat column f of a row (at least cx*nc to the left of it) by the boundary rule: the
% flat index of the sample it reads, -1 for a zero.
function col : int = __device__ tile_col(f : int, w : int, nc : int, wc : int, cx : int, _
        mode : int)
    col = f
    if f < 0 || f >= wc
        j = f + cx * nc
        j /= nc
        c = f + cx * nc - j * nc
        jj = bnd_index(j - cx, w, mode)
        col = jj >= 0 ? jj * nc + c : -1
    endif
endfunction

% What a tiled kernel starts with: its thread t, the block's first output row i0 and flat
% column q0, the thread's column q (at tile position t + hl) and, for t < hw (the halo's
% width HW), the halo column at tile position tp2; the flat indices they read (c1, c2);
% whether the tile's window rows lie inside the image (rows).
macro [] = tile_start(R, K, HW)
    t = blkpos[1]
    i0 = K * blkidx[0]
    q0 = 128 * blkidx[1]
    q = q0 + t
    hl = cx * nc
    hw = HW
    tp2 = t >= hl ? t + 128 : t
    c1 = tile_col(q, w, nc, wc, cx, mode)
    c2 = tile_col(q0 - hl + tp2, w, nc, wc, cx, mode)
    rows = i0 - cy >= 0 && i0 + K - 1 + R - 1 - cy < h
endmacro


% Separable tiles: input row r of column tcol times tap m of ty into output row r - m;
% the row by the boundary rule (rule) or directly.
macro [] = sep_vrow(r, T, K, rule, NC)
    if r < T + K - 1
        i = i0 + r - cy
        if rule
            i = bnd_index(i, h, mode)
        endif
        if !rule || i >= 0
            v = x[i * wc + tcol]
            if 0 < T && r - 0 >= 0 && r - 0 < K
                a[r - 0] += ty[0] * v
            endif
            if 1 < T && r - 1 >= 0 && r - 1 < K
                a[r - 1] += ty[1] * v
            endif
            if 2 < T && r - 2 >= 0 && r - 2 < K
                a[r - 2] += ty[2] * v
            endif
            if 3 < T && r - 3 >= 0 && r - 3 < K
                a[r - 3] += ty[3] * v
            endif
            if 4 < T && r - 4 >= 0 && r - 4 < K
                a[r - 4] += ty[4] * v
            endif
            if 5 < T && r - 5 >= 0 && r - 5 < K
                a[r - 5] += ty[5] * v
            endif
            if 6 < T && r - 6 >= 0 && r - 6 < K
                a[r - 6] += ty[6] * v
            endif
            if 7 < T && r - 7 >= 0 && r - 7 < K
                a[r - 7] += ty[7] * v
            endif
            if 8 < T && r - 8 >= 0 && r - 8 < K
                a[r - 8] += ty[8] * v
            endif
            if 9 < T && r - 9 >= 0 && r - 9 < K
                a[r - 9] += ty[9] * v
            endif
            if 10 < T && r - 10 >= 0 && r - 10 < K
                a[r - 10] += ty[10] * v
            endif
            if 11 < T && r - 11 >= 0 && r - 11 < K
                a[r - 11] += ty[11] * v
            endif
            if 12 < T && r - 12 >= 0 && r - 12 < K
                a[r - 12] += ty[12] * v
            endif
        endif
    endif
endmacro

% Separable tiles, pass 1: column col (-1: zeros) filtered down into the K rows of tile
% position sp.
macro [] = sep_vcol(col, sp, T, K)
    tcol = col
    a = zeros(K)
    if tcol >= 0
        if rows
            sep_vrow(0, T, K, false, nc)
            sep_vrow(1, T, K, false, nc)
            sep_vrow(2, T, K, false, nc)
            sep_vrow(3, T, K, false, nc)
            sep_vrow(4, T, K, false, nc)
            sep_vrow(5, T, K, false, nc)
            sep_vrow(6, T, K, false, nc)
            sep_vrow(7, T, K, false, nc)
            sep_vrow(8, T, K, false, nc)
            sep_vrow(9, T, K, false, nc)
            sep_vrow(10, T, K, false, nc)
            sep_vrow(11, T, K, false, nc)
            sep_vrow(12, T, K, false, nc)
            sep_vrow(13, T, K, false, nc)
            sep_vrow(14, T, K, false, nc)
            sep_vrow(15, T, K, false, nc)
            sep_vrow(16, T, K, false, nc)
            sep_vrow(17, T, K, false, nc)
            sep_vrow(18, T, K, false, nc)
            sep_vrow(19, T, K, false, nc)
        else
            sep_vrow(0, T, K, true, nc)
            sep_vrow(1, T, K, true, nc)
            sep_vrow(2, T, K, true, nc)
            sep_vrow(3, T, K, true, nc)
            sep_vrow(4, T, K, true, nc)
            sep_vrow(5, T, K, true, nc)
            sep_vrow(6, T, K, true, nc)
            sep_vrow(7, T, K, true, nc)
            sep_vrow(8, T, K, true, nc)
            sep_vrow(9, T, K, true, nc)
            sep_vrow(10, T, K, true, nc)
            sep_vrow(11, T, K, true, nc)
            sep_vrow(12, T, K, true, nc)
            sep_vrow(13, T, K, true, nc)
            sep_vrow(14, T, K, true, nc)
            sep_vrow(15, T, K, true, nc)
            sep_vrow(16, T, K, true, nc)
            sep_vrow(17, T, K, true, nc)
            sep_vrow(18, T, K, true, nc)
            sep_vrow(19, T, K, true, nc)
        endif
    endif
    if 0 < K
        sh[0 + sp] = a[0]
    endif
    if 1 < K
        sh[192 + sp] = a[1]
    endif
    if 2 < K
        sh[384 + sp] = a[2]
    endif
    if 3 < K
        sh[576 + sp] = a[3]
    endif
    if 4 < K
        sh[768 + sp] = a[4]
    endif
    if 5 < K
        sh[960 + sp] = a[5]
    endif
    if 6 < K
        sh[1152 + sp] = a[6]
    endif
    if 7 < K
        sh[1344 + sp] = a[7]
    endif
endmacro

% Separable tiles, pass 2: output row k of the tile, along the row from shared memory (tx).
macro [] = sep_hrow(k, T, K)
    if k < K && i0 + k < h && q < wc
        b = 192 * k + t
        o = tx[0] * sh[b]
        if 1 < T
            o += tx[1] * sh[b + 1 * nc]
        endif
        if 2 < T
            o += tx[2] * sh[b + 2 * nc]
        endif
        if 3 < T
            o += tx[3] * sh[b + 3 * nc]
        endif
        if 4 < T
            o += tx[4] * sh[b + 4 * nc]
        endif
        if 5 < T
            o += tx[5] * sh[b + 5 * nc]
        endif
        if 6 < T
            o += tx[6] * sh[b + 6 * nc]
        endif
        if 7 < T
            o += tx[7] * sh[b + 7 * nc]
        endif
        if 8 < T
            o += tx[8] * sh[b + 8 * nc]
        endif
        if 9 < T
            o += tx[9] * sh[b + 9 * nc]
        endif
        if 10 < T
            o += tx[10] * sh[b + 10 * nc]
        endif
        if 11 < T
            o += tx[11] * sh[b + 11 * nc]
        endif
        if 12 < T
            o += tx[12] * sh[b + 12 * nc]
        endif
        y[(i0 + k) * wc + q] = o
    endif
endmacro

% A separable filter of T taps each way (T at most 13) on tiles of K rows.
macro [] = sep_tiled_body(T, K)
    tile_start(T, K, (T - 1) * nc)
    sh = shared(K * 192)
    tx = zeros(13)
    ty = zeros(13)
    if 0 < T
        tx[0] = gx[0]
        ty[0] = gy[0]
    endif
    if 1 < T
        tx[1] = gx[1]
        ty[1] = gy[1]
    endif
    if 2 < T
        tx[2] = gx[2]
        ty[2] = gy[2]
    endif
    if 3 < T
        tx[3] = gx[3]
        ty[3] = gy[3]
    endif
    if 4 < T
        tx[4] = gx[4]
        ty[4] = gy[4]
    endif
    if 5 < T
        tx[5] = gx[5]
        ty[5] = gy[5]
    endif
    if 6 < T
        tx[6] = gx[6]
        ty[6] = gy[6]
    endif
    if 7 < T
        tx[7] = gx[7]
        ty[7] = gy[7]
    endif
    if 8 < T
        tx[8] = gx[8]
        ty[8] = gy[8]
    endif
    if 9 < T
        tx[9] = gx[9]
        ty[9] = gy[9]
    endif
    if 10 < T
        tx[10] = gx[10]
        ty[10] = gy[10]
    endif
    if 11 < T
        tx[11] = gx[11]
        ty[11] = gy[11]
    endif
    if 12 < T
        tx[12] = gx[12]
        ty[12] = gy[12]
    endif
    sep_vcol(c1, t + hl, T, K)
    if t < hw
        sep_vcol(c2, tp2, T, K)
    endif
    syncthreads
    sep_hrow(0, T, K)
    sep_hrow(1, T, K)
    sep_hrow(2, T, K)
    sep_hrow(3, T, K)
    sep_hrow(4, T, K)
    sep_hrow(5, T, K)
    sep_hrow(6, T, K)
    sep_hrow(7, T, K)
endmacro


% 2-D tiles: input row r of column tcol into tile position tpos (a row outside
% the image, by the zero rule, leaves the zero of shared());
% the row by the boundary rule (rule) or directly.
macro [] = fir_tload(r, R, K, rule, NC)
    if r < R + K - 1
        i = i0 + r - cy
        if rule
            i = bnd_index(i, h, mode)
        endif
        if !rule || i >= 0
            sh[192 * r + tpos] = x[i * wc + tcol]
        endif
    endif
endmacro

% 2-D tiles, pass 1: the rows of column col (-1: zeros) into tile position sp.
macro [] = fir_tcol(col, sp, R, K)
    tcol = col
    tpos = sp
    if tcol >= 0
        if rows
            fir_tload(0, R, K, false, nc)
            fir_tload(1, R, K, false, nc)
            fir_tload(2, R, K, false, nc)
            fir_tload(3, R, K, false, nc)
            fir_tload(4, R, K, false, nc)
            fir_tload(5, R, K, false, nc)
            fir_tload(6, R, K, false, nc)
            fir_tload(7, R, K, false, nc)
            fir_tload(8, R, K, false, nc)
            fir_tload(9, R, K, false, nc)
            fir_tload(10, R, K, false, nc)
            fir_tload(11, R, K, false, nc)
            fir_tload(12, R, K, false, nc)
            fir_tload(13, R, K, false, nc)
        else
            fir_tload(0, R, K, true, nc)
            fir_tload(1, R, K, true, nc)
            fir_tload(2, R, K, true, nc)
            fir_tload(3, R, K, true, nc)
            fir_tload(4, R, K, true, nc)
            fir_tload(5, R, K, true, nc)
            fir_tload(6, R, K, true, nc)
            fir_tload(7, R, K, true, nc)
            fir_tload(8, R, K, true, nc)
            fir_tload(9, R, K, true, nc)
            fir_tload(10, R, K, true, nc)
            fir_tload(11, R, K, true, nc)
            fir_tload(12, R, K, true, nc)
            fir_tload(13, R, K, true, nc)
        endif
    endif
endmacro

% 2-D tiles, pass 2: tile row r (C samples from the thread's column) times each mask row m
% (taps tm) into output row r - m.
macro [] = fir_trow(r, R, C, K)
    if r < K + R - 1
        b = 192 * r + t
        if 0 < C
            v[0] = sh[b + 0 * nc]
        endif
        if 1 < C
            v[1] = sh[b + 1 * nc]
        endif
        if 2 < C
            v[2] = sh[b + 2 * nc]
        endif
        if 3 < C
            v[3] = sh[b + 3 * nc]
        endif
        if 4 < C
            v[4] = sh[b + 4 * nc]
        endif
        if 5 < C
            v[5] = sh[b + 5 * nc]
        endif
        if 6 < C
            v[6] = sh[b + 6 * nc]
        endif
        fir_acc(r, 0, t0, R, C, K)
        fir_acc(r, 1, t1, R, C, K)
        fir_acc(r, 2, t2, R, C, K)
        fir_acc(r, 3, t3, R, C, K)
        fir_acc(r, 4, t4, R, C, K)
        fir_acc(r, 5, t5, R, C, K)
        fir_acc(r, 6, t6, R, C, K)
    endif
endmacro

% A correlation with an R x C mask (R, C at most 7) on tiles of K rows.
macro [] = fir_tiled_body(R, C, K)
    tile_start(R, K, (C - 1) * nc)
    sh = shared((K + R - 1) * 192)
    fir_tcol(c1, t + hl, R, K)
    if t < hw
        fir_tcol(c2, tp2, R, K)
    endif
    t0 = zeros(7)
    t1 = zeros(7)
    t2 = zeros(7)
    t3 = zeros(7)
    t4 = zeros(7)
    t5 = zeros(7)
    t6 = zeros(7)
    fir_taps(0, t0, R, C)
    fir_taps(1, t1, R, C)
    fir_taps(2, t2, R, C)
    fir_taps(3, t3, R, C)
    fir_taps(4, t4, R, C)
    fir_taps(5, t5, R, C)
    fir_taps(6, t6, R, C)
    v = zeros(7)
    a = zeros(K)
    syncthreads
    fir_trow(0, R, C, K)
    fir_trow(1, R, C, K)
    fir_trow(2, R, C, K)
    fir_trow(3, R, C, K)
    fir_trow(4, R, C, K)
    fir_trow(5, R, C, K)
    fir_trow(6, R, C, K)
    fir_trow(7, R, C, K)
    fir_trow(8, R, C, K)
    fir_trow(9, R, C, K)
    fir_trow(10, R, C, K)
    fir_trow(11, R, C, K)
    fir_trow(12, R, C, K)
    fir_trow(13, R, C, K)
    if q < wc
        if 0 < K && i0 + 0 < h
            y[(i0 + 0) * wc + q] = a[0]
        endif
        if 1 < K && i0 + 1 < h
            y[(i0 + 1) * wc + q] = a[1]
        endif
        if 2 < K && i0 + 2 < h
            y[(i0 + 2) * wc + q] = a[2]
        endif
        if 3 < K && i0 + 3 < h
            y[(i0 + 3) * wc + q] = a[3]
        endif
        if 4 < K && i0 + 4 < h
            y[(i0 + 4) * wc + q] = a[4]
        endif
        if 5 < K && i0 + 5 < h
            y[(i0 + 5) * wc + q] = a[5]
        endif
        if 6 < K && i0 + 6 < h
            y[(i0 + 6) * wc + q] = a[6]
        endif
        if 7 < K && i0 + 7 < h
            y[(i0 + 7) * wc + q] = a[7]
        endif
    endif
endmacro

function [] = __kernel__ imfilter_3x3(x : cube'unchecked, y : cube'unchecked'nocopy, _
        mask : vec'unchecked'hwconst, cy : int, cx : int, h : int, w : int, nc : int, _
        wc : int, mode : int, pos : ivec2)
    fir2d_body(3, 3, 8, nc)
endfunction

function [] = __kernel__ imfilter_5x5(x : cube'unchecked, y : cube'unchecked'nocopy, _
        mask : vec'unchecked'hwconst, cy : int, cx : int, h : int, w : int, nc : int, _
        wc : int, mode : int, pos : ivec2)
    fir2d_body(5, 5, 8, nc)
endfunction

function [] = __kernel__ imfilter_7x7(x : cube'unchecked, y : cube'unchecked'nocopy, _
        mask : vec'unchecked'hwconst, cy : int, cx : int, h : int, w : int, nc : int, _
        wc : int, mode : int, pos : ivec2)
    fir2d_body(7, 7, 8, nc)
endfunction

function [] = __kernel__ separable_3(x : cube'unchecked, y : cube'unchecked'nocopy, _
        gy : vec'unchecked'hwconst, cy : int, gx : vec'unchecked'hwconst, cx : int, h : int, _
        w : int, nc : int, wc : int, mode : int, pos : ivec2)
    sep_body(3, 8, nc)
endfunction

function [] = __kernel__ separable_5(x : cube'unchecked, y : cube'unchecked'nocopy, _
        gy : vec'unchecked'hwconst, cy : int, gx : vec'unchecked'hwconst, cx : int, h : int, _
        w : int, nc : int, wc : int, mode : int, pos : ivec2)
    sep_body(5, 8, nc)
endfunction

function [] = __kernel__ separable_7(x : cube'unchecked, y : cube'unchecked'nocopy, _
        gy : vec'unchecked'hwconst, cy : int, gx : vec'unchecked'hwconst, cx : int, h : int, _
        w : int, nc : int, wc : int, mode : int, pos : ivec2)
    sep_body(7, 8, nc)
endfunction

function [] = __kernel__ separable_9(x : cube'unchecked, y : cube'unchecked'nocopy, _
        gy : vec'unchecked'hwconst, cy : int, gx : vec'unchecked'hwconst, cx : int, h : int, _
        w : int, nc : int, wc : int, mode : int, pos : ivec2)
    sep_body(9, 8, nc)
endfunction

function [] = __kernel__ separable_11(x : cube'unchecked, y : cube'unchecked'nocopy, _
        gy : vec'unchecked'hwconst, cy : int, gx : vec'unchecked'hwconst, cx : int, h : int, _
        w : int, nc : int, wc : int, mode : int, pos : ivec2)
    sep_body(11, 8, nc)
endfunction

function [] = __kernel__ separable_13(x : cube'unchecked, y : cube'unchecked'nocopy, _
        gy : vec'unchecked'hwconst, cy : int, gx : vec'unchecked'hwconst, cx : int, h : int, _
        w : int, nc : int, wc : int, mode : int, pos : ivec2)
    sep_body(13, 8, nc)
endfunction

function [] = __kernel__ imfilter_tiled_3x3(x : cube'unchecked, y : cube'unchecked'nocopy, _
        mask : vec'unchecked'hwconst, cy : int, cx : int, h : int, w : int, nc : int, _
        wc : int, mode : int, blkidx : ivec2, blkpos : ivec2)
    fir_tiled_body(3, 3, 8)
endfunction

function [] = __kernel__ imfilter_tiled_5x5(x : cube'unchecked, y : cube'unchecked'nocopy, _
        mask : vec'unchecked'hwconst, cy : int, cx : int, h : int, w : int, nc : int, _
        wc : int, mode : int, blkidx : ivec2, blkpos : ivec2)
    fir_tiled_body(5, 5, 8)
endfunction

function [] = __kernel__ imfilter_tiled_7x7(x : cube'unchecked, y : cube'unchecked'nocopy, _
        mask : vec'unchecked'hwconst, cy : int, cx : int, h : int, w : int, nc : int, _
        wc : int, mode : int, blkidx : ivec2, blkpos : ivec2)
    fir_tiled_body(7, 7, 8)
endfunction

function [] = __kernel__ separable_tiled_3(x : cube'unchecked, y : cube'unchecked'nocopy, _
        gy : vec'unchecked'hwconst, cy : int, gx : vec'unchecked'hwconst, cx : int, h : int, _
        w : int, nc : int, wc : int, mode : int, blkidx : ivec2, blkpos : ivec2)
    sep_tiled_body(3, 8)
endfunction

function [] = __kernel__ separable_tiled_5(x : cube'unchecked, y : cube'unchecked'nocopy, _
        gy : vec'unchecked'hwconst, cy : int, gx : vec'unchecked'hwconst, cx : int, h : int, _
        w : int, nc : int, wc : int, mode : int, blkidx : ivec2, blkpos : ivec2)
    sep_tiled_body(5, 8)
endfunction

function [] = __kernel__ separable_tiled_7(x : cube'unchecked, y : cube'unchecked'nocopy, _
        gy : vec'unchecked'hwconst, cy : int, gx : vec'unchecked'hwconst, cx : int, h : int, _
        w : int, nc : int, wc : int, mode : int, blkidx : ivec2, blkpos : ivec2)
    sep_tiled_body(7, 8)
endfunction

function [] = __kernel__ separable_tiled_9(x : cube'unchecked, y : cube'unchecked'nocopy, _
        gy : vec'unchecked'hwconst, cy : int, gx : vec'unchecked'hwconst, cx : int, h : int, _
        w : int, nc : int, wc : int, mode : int, blkidx : ivec2, blkpos : ivec2)
    sep_tiled_body(9, 8)
endfunction

function [] = __kernel__ separable_tiled_11(x : cube'unchecked, y : cube'unchecked'nocopy, _
        gy : vec'unchecked'hwconst, cy : int, gx : vec'unchecked'hwconst, cx : int, h : int, _
        w : int, nc : int, wc : int, mode : int, blkidx : ivec2, blkpos : ivec2)
    sep_tiled_body(11, 8)
endfunction

function [] = __kernel__ separable_tiled_13(x : cube'unchecked, y : cube'unchecked'nocopy, _
        gy : vec'unchecked'hwconst, cy : int, gx : vec'unchecked'hwconst, cx : int, h : int, _
        w : int, nc : int, wc : int, mode : int, blkidx : ivec2, blkpos : ivec2)
    sep_tiled_body(13, 8)
endfunction

% The launch of a tiled kernel: blocks of 1 x 128 threads, one a tile of 8 rows x 128
% flat columns.
function d = tiled_dims(xr)
    d = [[ceil(size(xr, 0) / 8), 128 * ceil(size(xr, 1) * size(xr, 2) / 128)], [1, 128]]
endfunction

% Whether a tile's rows hold the halo of a window of n columns.
function ok : bool = tiled_fits(xr, n : int)
    ok = (n - 1) * size(xr, 2) <= 64 && numel(xr) < 2^31 - 2^26
endfunction

% The rows a thread of the fixed-size kernels computes.
function k : int = fixed_rows()
    k = 8
endfunction

% The launch of a fixed-size kernel: fixed_rows() output rows a thread, w*nc columns
% rounded up to 64.
function d = fixed_dims(xr)
    d = [ceil(size(xr, 0) / fixed_rows()), 64 * ceil(size(xr, 1) * size(xr, 2) / 64)]
endfunction

% Whether a fixed-size kernel may take the image: its flat indices are ints.
function ok : bool = fixed_fits(xr)
    ok = numel(xr) < 2^31 - 2^26
endfunction

% imfilter through a tiled kernel when the mask is 3x3, 5x5 or 7x7 and the halo fits
% (done), else nothing is done.
function [y, done : bool] = imfilter_tiled(xr, taps, rows : int, cols : int, cy : int, _
        cx : int, mode : int)
    y = xr
    done = rows == cols && (rows == 3 || rows == 5 || rows == 7) && tiled_fits(xr, cols)
    if done
        [h, w, nc] = [size(xr, 0), size(xr, 1), size(xr, 2)]
        y = uninit(size(xr))
        d = tiled_dims(xr)
        if rows == 3
            parallel_do(d, xr, y, taps, cy, cx, h, w, nc, w * nc, mode, imfilter_tiled_3x3)
        elseif rows == 5
            parallel_do(d, xr, y, taps, cy, cx, h, w, nc, w * nc, mode, imfilter_tiled_5x5)
        elseif rows == 7
            parallel_do(d, xr, y, taps, cy, cx, h, w, nc, w * nc, mode, imfilter_tiled_7x7)
        endif
    endif
endfunction

% A separable filter through a tiled kernel when gy and gx have one odd length of 3 to 13
% and the halo fits (done), else nothing is done.
function [y, done : bool] = separable_tiled(xr, gy, cy : int, gx, cx : int, mode : int)
    y = xr
    T = numel(gx)
    done = numel(gy) == T && T >= 3 && T <= 13 && mod(T, 2) == 1 && tiled_fits(xr, T)
    if done
        [h, w, nc] = [size(xr, 0), size(xr, 1), size(xr, 2)]
        y = uninit(size(xr))
        d = tiled_dims(xr)
        if T == 3
            parallel_do(d, xr, y, gy, cy, gx, cx, h, w, nc, w * nc, mode, separable_tiled_3)
        elseif T == 5
            parallel_do(d, xr, y, gy, cy, gx, cx, h, w, nc, w * nc, mode, separable_tiled_5)
        elseif T == 7
            parallel_do(d, xr, y, gy, cy, gx, cx, h, w, nc, w * nc, mode, separable_tiled_7)
        elseif T == 9
            parallel_do(d, xr, y, gy, cy, gx, cx, h, w, nc, w * nc, mode, separable_tiled_9)
        elseif T == 11
            parallel_do(d, xr, y, gy, cy, gx, cx, h, w, nc, w * nc, mode, separable_tiled_11)
        elseif T == 13
            parallel_do(d, xr, y, gy, cy, gx, cx, h, w, nc, w * nc, mode, separable_tiled_13)
        endif
    endif
endfunction

% imfilter through a fixed-size kernel when the mask is 3x3, 5x5 or 7x7 (done), else
% nothing is done; on the GPU the tiled kernel when the halo fits.
function [y, done : bool] = imfilter_fixed(xr, taps, rows : int, cols : int, cy : int, _
        cx : int, mode : int)
    y = xr
    done = false
    if $target("gpu")
        [y, done] = imfilter_tiled(xr, taps, rows, cols, cy, cx, mode)
    endif
    if !done && rows == cols && (rows == 3 || rows == 5 || rows == 7) && fixed_fits(xr)
        done = true
        [h, w, nc] = [size(xr, 0), size(xr, 1), size(xr, 2)]
        y = uninit(size(xr))
        d = fixed_dims(xr)
        if rows == 3
            parallel_do(d, xr, y, taps, cy, cx, h, w, nc, w * nc, mode, imfilter_3x3)
        elseif rows == 5
            parallel_do(d, xr, y, taps, cy, cx, h, w, nc, w * nc, mode, imfilter_5x5)
        elseif rows == 7
            parallel_do(d, xr, y, taps, cy, cx, h, w, nc, w * nc, mode, imfilter_7x7)
        endif
    endif
endfunction

% A separable filter through a fixed-size kernel when gy and gx have one odd length of 3 to
% 13 (done), else nothing is done; on the GPU the tiled kernel when the halo fits.
function [y, done : bool] = separable_fixed(xr, gy, cy : int, gx, cx : int, mode : int)
    y = xr
    T = numel(gx)
    done = false
    if $target("gpu")
        [y, done] = separable_tiled(xr, gy, cy, gx, cx, mode)
    endif
    if !done && numel(gy) == T && T >= 3 && T <= 13 && mod(T, 2) == 1 && fixed_fits(xr)
        done = true
        [h, w, nc] = [size(xr, 0), size(xr, 1), size(xr, 2)]
        y = uninit(size(xr))
        d = fixed_dims(xr)
        if T == 3
            parallel_do(d, xr, y, gy, cy, gx, cx, h, w, nc, w * nc, mode, separable_3)
        elseif T == 5
            parallel_do(d, xr, y, gy, cy, gx, cx, h, w, nc, w * nc, mode, separable_5)
        elseif T == 7
            parallel_do(d, xr, y, gy, cy, gx, cx, h, w, nc, w * nc, mode, separable_7)
        elseif T == 9
            parallel_do(d, xr, y, gy, cy, gx, cx, h, w, nc, w * nc, mode, separable_9)
        elseif T == 11
            parallel_do(d, xr, y, gy, cy, gx, cx, h, w, nc, w * nc, mode, separable_11)
        elseif T == 13
            parallel_do(d, xr, y, gy, cy, gx, cx, h, w, nc, w * nc, mode, separable_13)
        endif
    endif
endfunction


function y = imfilter(x, mask, ctr = -1, boundary = "clamped")
    check_image(x, "imfilter")
    if is_rule_name(ctr)                % imfilter(x, mask, "mirror"): the default centre
        boundary = ctr
        ctr = -1
    endif
    mode = boundary_mode(boundary, "imfilter")
    [rows, cols, cy, cx] = mask_shape(mask, ctr, "imfilter")
    xr = as_rows(x)
    taps = isscalar(mask) ? ones(1) * mask : reshape(mask, [rows*cols])
    [y, done] = imfilter_fixed(xr, taps, rows, cols, cy, cx, mode)
    if !done
        y = uninit(size(xr))
        parallel_do([ceil(size(xr, 0) / 8), size(xr, 1), size(xr, 2)], xr, y, taps, rows, _
                    cols, cy, cx, size(xr, 0), size(xr, 1), mode, imfilter_kernel)
    endif
    y = like_input(y, x)
endfunction

% A separable filter in one pass: taps gy down the columns (centre cy) and gx along the
% rows (centre cx). Each thread computes 8 output rows: every input row of their windows is
% filtered along the row once (gx) and added to each output row it reaches (gy).
function [] = __kernel__ separable_kernel(x : cube'unchecked, y : cube'unchecked'nocopy, _
        gy : vec'unchecked'hwconst, cy : int, gx : vec'unchecked'hwconst, cx : int, _
        h : int, w : int, mode : int, pos : ivec3)
    ny = numel(gy)
    nx = numel(gx)
    i0 = 8 * pos[0]
    j0 = pos[1] - cx
    c = pos[2]
    inside = j0 >= 0 && j0 + nx <= w
    a0 = 0.0
    a1 = 0.0
    a2 = 0.0
    a3 = 0.0
    a4 = 0.0
    a5 = 0.0
    a6 = 0.0
    a7 = 0.0
    for r = 0..ny+6
        i = bnd_index(i0 + r - cy, h, mode)
        if i >= 0
            t = 0.0
            if inside
                for n = 0..nx-1
                    t += gx[n] * x[i, j0 + n, c]
                endfor
            else
                for n = 0..nx-1
                    j = bnd_index(j0 + n, w, mode)
                    if j >= 0
                        t += gx[n] * x[i, j, c]
                    endif
                endfor
            endif
            if r < ny
                a0 += gy[r] * t
            endif
            if r >= 1 && r < ny + 1
                a1 += gy[r-1] * t
            endif
            if r >= 2 && r < ny + 2
                a2 += gy[r-2] * t
            endif
            if r >= 3 && r < ny + 3
                a3 += gy[r-3] * t
            endif
            if r >= 4 && r < ny + 4
                a4 += gy[r-4] * t
            endif
            if r >= 5 && r < ny + 5
                a5 += gy[r-5] * t
            endif
            if r >= 6 && r < ny + 6
                a6 += gy[r-6] * t
            endif
            if r >= 7
                a7 += gy[r-7] * t
            endif
        endif
    endfor
    store8(y, i0, pos[1], c, h, a0, a1, a2, a3, a4, a5, a6, a7)
endfunction

function y = separable_filter(x, gy, cy : int, gx, cx : int, mode : int)
    xr = as_rows(x)
    [y, done] = separable_fixed(xr, gy, cy, gx, cx, mode)
    if !done
        y = uninit(size(xr))
        parallel_do([ceil(size(xr, 0) / 8), size(xr, 1), size(xr, 2)], xr, y, gy, cy, gx, _
                    cx, size(xr, 0), size(xr, 1), mode, separable_kernel)
    endif
    y = like_input(y, x)
endfunction

% The normalized 1-D Gaussian of standard deviation sigma: fsize taps, or 2*ceil(3*sigma)+1
% when fsize is 0.
function g : vec = gaussian_taps(sigma : scalar, fsize : int = 0)
    if !(sigma > 0)
        error("gaussian_filter: sigma must be positive, not ", sigma)
    endif
    if fsize < 0
        error("gaussian_filter: the filter size must be positive (or 0: from sigma), not ", fsize)
    endif
    n = fsize == 0 ? 2 * int(ceil(3 * sigma)) + 1 : fsize
    c = floor(n / 2)
    g = exp(-((0..n-1) - c) .^ 2 / (2 * sigma * sigma))
    g = g / sum(g)
endfunction

function y = gaussian_filter(x, sigma, fsize = 0, boundary = "clamped")
    check_image(x, "gaussian_filter")
    if is_rule_name(fsize)              % gaussian_filter(x, sigma, "mirror"): size from sigma
        boundary = fsize
        fsize = 0
    endif
    mode = boundary_mode(boundary, "gaussian_filter")
    g = gaussian_taps(sigma, int(fsize))
    c = int(floor(numel(g) / 2))
    y = separable_filter(x, g, c, g, c, mode)
endfunction

function y = box_filter(x, fsize, boundary = "clamped")
    check_image(x, "box_filter")
    mode = boundary_mode(boundary, "box_filter")
    n = pair_of(fsize, "box_filter", "the filter size")
    if n[0] < 1 || n[1] < 1
        error("box_filter: the filter size must be at least 1, not ", n)
    endif
    gy = ones(int(n[0])) / n[0]
    gx = ones(int(n[1])) / n[1]
    y = separable_filter(x, gy, int(floor(n[0] / 2)), gx, int(floor(n[1] / 2)), mode)
endfunction
