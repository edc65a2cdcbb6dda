#!/usr/bin/env python3
"""tools/gen_imfilter_fixed.py: writes the fixed-size kernels of lib/imfilter.q and their
tiled versions for the GPU (the section from "% ---- Fixed-size kernels" up to imfilter
itself) to stdout. The macros are spelled
out with literal row and tap numbers, one call per row and per tap row, because kernels
compile them to straight-line code only when every number is a literal (the C compiler and
NVRTC do not unroll Quasar's loops); writing those calls by hand would be error-prone.
Usage: python3 tools/gen_imfilter_fixed.py [K]   (K: output rows a thread, default 8, at
most KMAX; the tiles' rows are TK below), then replace the section of lib/imfilter.q with
the output; run tests/lang/lib_imfilter_fixed.q, lib_imfilter_separable*.q and
lib_imfilter_tiled*.q after (and tests/gpu/lib_filter_tiled.q on a GPU)."""
L = []
A = L.append
KMAX = 8


def indent(text, pad):
    return "\n".join(pad + ln if ln else ln for ln in text.split("\n"))

def tap_copies(pad):
    """The separable kernels' copies of the T taps each way (gx, gy) into locals tx, ty."""
    for n in range(13):
        A(indent(f"if {n} < T\n    tx[{n}] = gx[{n}]\n    ty[{n}] = gy[{n}]\nendif", pad))


def row_macro(name, doc, params, taps, body, value=None):
    """The macro of input row r of a window of taps + K - 1 rows: the row's index by the
    boundary rule (rule) or directly (a window inside the image), then body (lines) where
    the row is inside."""
    A(f"""
% {doc};
% the row by the boundary rule (rule) or directly.
macro [] = {name}(r, {params}, rule, NC)
    if r < {taps} + K - 1
        i = i0 + r - cy
        if rule
            i = bnd_index(i, h, mode)
        endif
        if !rule || i >= 0""")
    for b in body:
        A(indent(b, "            "))
    A("""        endif
    endif
endmacro
""")

def both_paths(call, n, pad):
    """The n row calls of a window inside the image (rows) and, else, through the rule."""
    A(pad + "if rows")
    for r in range(n):
        A(pad + "    " + call(r, "false"))
    A(pad + "else")
    for r in range(n):
        A(pad + "    " + call(r, "true"))
    A(pad + "endif")
A('''% ---- Fixed-size kernels: masks of 3x3, 5x5 and 7x7, separable filters of 3 to 13 taps ----
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
macro [] = fixed_store(acc, K)''')
for k in range(KMAX):
    A(f'''    if {k} < K && i0 + {k} < h
        y[(i0 + {k}) * wc + q] = acc[{k}]
    endif''')
A('''endmacro

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
    if m < R''')
for n in range(7):
    A(f'''        if {n} < C
            tm[{n}] = mask[m * C + {n}]
        endif''')
A('''    endif
endmacro

% The C samples of row i from the thread's window's first column into v (NC: the channel
% count, a literal in a kernel for one, so that the offsets are constants).
macro [] = fir_load(C, NC)
    base = i * wc + q - cx * NC''')
for n in range(7):
    off = "" if n == 0 else (" + NC" if n == 1 else f" + {n} * NC")
    A(f'''    if {n} < C
        v[{n}] = x[base{off}]
    endif''')
A('''endmacro

% Input row r times mask row m (taps tm) into output row r - m, when it reaches one.
macro [] = fir_acc(r, m, tm, R, C, K)
    if m < R && r - m >= 0 && r - m < K
        s = tm[0] * v[0]''')
for n in range(1, 7):
    A(f'''        if {n} < C
            s += tm[{n}] * v[{n}]
        endif''')
A('''        a[r - m] += s
    endif
endmacro''')
row_macro("fir_row", "Input row r of the window (R + K - 1 rows), added to every output row it reaches", "R, C, K", "R",
          ["fir_load(C, NC)"] + [f"fir_acc(r, {m}, t{m}, R, C, K)" for m in range(7)])
A('''% The body of a correlation with an R x C mask (R, C at most 7), K rows a thread.
macro [] = fir2d_body(R, C, K, NC)
    fixed_start(C, R, K)
    if q < wc && !cols
        fir_edge(R, C, K)
    elseif q < wc''')
for m in range(7):
    A(f'''        t{m} = zeros(7)''')
for m in range(7):
    A(f'''        fir_taps({m}, t{m}, R, C)''')
A('''        v = zeros(7)''')
both_paths(lambda r, rule: f"fir_row({r}, R, C, K, {rule}, NC)", 7 + KMAX - 1, "        ")
A('''        fixed_store(a, K)
    endif
endmacro
''')

def fir_kernel(name, R, K):
    A(f'''function [] = __kernel__ {name}(x : cube'unchecked, y : cube'unchecked'nocopy, _
        mask : vec'unchecked'hwconst, cy : int, cx : int, h : int, w : int, nc : int, _
        wc : int, mode : int, pos : ivec2)
    fir2d_body({R}, {R}, {K}, nc)
endfunction
''')

A('''% Separable, an edge column: loops, the boundary rule per tap.
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
endmacro''')
row_macro("sep_row", "Separable: input row r filtered along the row (taps tx), then times tap m of ty into\n% output row r - m, for each output row it reaches", "T, K", "T",
          ["base = i * wc + q - cx * NC", "s = tx[0] * x[base]"] +
          [f"if {n} < T\n    s += tx[{n}] * x[base + {n} * NC]\nendif" for n in range(1, 13)] +
          [f"if {m} < T && r - {m} >= 0 && r - {m} < K\n    a[r - {m}] += ty[{m}] * s\nendif" for m in range(13)])
A('''% The body of a separable filter of T taps each way (T at most 13), K rows a thread.
macro [] = sep_body(T, K, NC)
    fixed_start(T, T, K)
    if q < wc && !cols
        sep_edge(T, K)
    elseif q < wc
        tx = zeros(13)
        ty = zeros(13)''')
tap_copies("        ")
both_paths(lambda r, rule: f"sep_row({r}, T, K, {rule}, NC)", 13 + KMAX - 1, "        ")
A('''        fixed_store(a, K)
    endif
endmacro
''')
def sep_kernel(name, T, K):
    A(f'''function [] = __kernel__ {name}(x : cube'unchecked, y : cube'unchecked'nocopy, _
        gy : vec'unchecked'hwconst, cy : int, gx : vec'unchecked'hwconst, cx : int, h : int, _
        w : int, nc : int, wc : int, mode : int, pos : ivec2)
    sep_body({T}, {K}, nc)
endfunction
''')

# ---- GPU tiles (TK rows x TW flat columns a block; the tile's rows are SW numbers wide) ----
TK, TW, SW = 8, 128, 192
def tiled_section():
    A(f"""% ---- GPU tiles: the same filters for --target cuda ----
% On a GPU the kernels above leave the memory idle much of the time (50-75 % of a copy's
% bandwidth at best): every thread reads its window's columns from L1, each load a warp's
% 32 numbers at an offset of nc, most of them two cache lines. Here a block of {TW} threads
% computes a tile of {TK} rows x {TW} flat columns: each thread reads a column of the tile
% (and one of the halo, the (C-1)*nc columns the windows reach past the tile, when t is
% below its width) straight down, a warp's loads aligned and coalesced, with the boundary
% rule for the column once; the rows go into block-shared memory, from which each thread
% takes its window's samples (consecutive threads, consecutive numbers: no bank
% conflicts). The separable filters filter each column down (taps gy) before the shared
% memory, so only {TK} rows go there, then along the rows (gx). Rows of {SW} numbers hold a
% halo of at most {SW - TW} flat columns; wider ones (many channels and taps) take the
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
    q0 = {TW} * blkidx[1]
    q = q0 + t
    hl = cx * nc
    hw = HW
    tp2 = t >= hl ? t + {TW} : t
    c1 = tile_col(q, w, nc, wc, cx, mode)
    c2 = tile_col(q0 - hl + tp2, w, nc, wc, cx, mode)
    rows = i0 - cy >= 0 && i0 + K - 1 + R - 1 - cy < h
endmacro
""")
    row_macro("sep_vrow", "Separable tiles: input row r of column tcol times tap m of ty into output row r - m",
              "T, K", "T",
              ["v = x[i * wc + tcol]"] +
              [f"if {m} < T && r - {m} >= 0 && r - {m} < K\n    a[r - {m}] += ty[{m}] * v\nendif" for m in range(13)])
    A(f"""% Separable tiles, pass 1: column col (-1: zeros) filtered down into the K rows of tile
% position sp.
macro [] = sep_vcol(col, sp, T, K)
    tcol = col
    a = zeros(K)
    if tcol >= 0""")
    both_paths(lambda r, rule: f"sep_vrow({r}, T, K, {rule}, nc)", TK + 12, "        ")
    A("""    endif""")
    for k in range(TK):
        A(f"""    if {k} < K
        sh[{k * SW} + sp] = a[{k}]
    endif""")
    A(f"""endmacro

% Separable tiles, pass 2: output row k of the tile, along the row from shared memory (tx).
macro [] = sep_hrow(k, T, K)
    if k < K && i0 + k < h && q < wc
        b = {SW} * k + t
        o = tx[0] * sh[b]""")
    for n in range(1, 13):
        A(f"""        if {n} < T
            o += tx[{n}] * sh[b + {n} * nc]
        endif""")
    A(f"""        y[(i0 + k) * wc + q] = o
    endif
endmacro

% A separable filter of T taps each way (T at most 13) on tiles of K rows.
macro [] = sep_tiled_body(T, K)
    tile_start(T, K, (T - 1) * nc)
    sh = shared(K * {SW})
    tx = zeros(13)
    ty = zeros(13)""")
    tap_copies("    ")
    A("""    sep_vcol(c1, t + hl, T, K)
    if t < hw
        sep_vcol(c2, tp2, T, K)
    endif
    syncthreads""")
    for k in range(TK):
        A(f"""    sep_hrow({k}, T, K)""")
    A("""endmacro
""")
    row_macro("fir_tload", "2-D tiles: input row r of column tcol into tile position tpos (a row outside\n% the image, by the zero rule, leaves the zero of shared())",
              "R, K", "R", [f"sh[{SW} * r + tpos] = x[i * wc + tcol]"])
    A(f"""% 2-D tiles, pass 1: the rows of column col (-1: zeros) into tile position sp.
macro [] = fir_tcol(col, sp, R, K)
    tcol = col
    tpos = sp
    if tcol >= 0""")
    both_paths(lambda r, rule: f"fir_tload({r}, R, K, {rule}, nc)", TK + 6, "        ")
    A(f"""    endif
endmacro

% 2-D tiles, pass 2: tile row r (C samples from the thread's column) times each mask row m
% (taps tm) into output row r - m.
macro [] = fir_trow(r, R, C, K)
    if r < K + R - 1
        b = {SW} * r + t""")
    for n in range(7):
        A(f"""        if {n} < C
            v[{n}] = sh[b + {n} * nc]
        endif""")
    for m in range(7):
        A(f"""        fir_acc(r, {m}, t{m}, R, C, K)""")
    A(f"""    endif
endmacro

% A correlation with an R x C mask (R, C at most 7) on tiles of K rows.
macro [] = fir_tiled_body(R, C, K)
    tile_start(R, K, (C - 1) * nc)
    sh = shared((K + R - 1) * {SW})
    fir_tcol(c1, t + hl, R, K)
    if t < hw
        fir_tcol(c2, tp2, R, K)
    endif""")
    for m in range(7):
        A(f"""    t{m} = zeros(7)""")
    for m in range(7):
        A(f"""    fir_taps({m}, t{m}, R, C)""")
    A("""    v = zeros(7)
    a = zeros(K)
    syncthreads""")
    for r in range(TK + 6):
        A(f"""    fir_trow({r}, R, C, K)""")
    A("""    if q < wc""")
    for k in range(TK):
        A(f"""        if {k} < K && i0 + {k} < h
            y[(i0 + {k}) * wc + q] = a[{k}]
        endif""")
    A("""    endif
endmacro
""")
tiled_section()
import sys
K = int(sys.argv[1]) if len(sys.argv) > 1 else 8
# One kernel per size; the channel count nc is a parameter.
for n in (3, 5, 7):
    A(f"""function [] = __kernel__ imfilter_{n}x{n}(x : cube'unchecked, y : cube'unchecked'nocopy, _
        mask : vec'unchecked'hwconst, cy : int, cx : int, h : int, w : int, nc : int, _
        wc : int, mode : int, pos : ivec2)
    fir2d_body({n}, {n}, {K}, nc)
endfunction
""")
for T in (3, 5, 7, 9, 11, 13):
    A(f"""function [] = __kernel__ separable_{T}(x : cube'unchecked, y : cube'unchecked'nocopy, _
        gy : vec'unchecked'hwconst, cy : int, gx : vec'unchecked'hwconst, cx : int, h : int, _
        w : int, nc : int, wc : int, mode : int, pos : ivec2)
    sep_body({T}, {K}, nc)
endfunction
""")
for n in (3, 5, 7):
    A(f"""function [] = __kernel__ imfilter_tiled_{n}x{n}(x : cube'unchecked, y : cube'unchecked'nocopy, _
        mask : vec'unchecked'hwconst, cy : int, cx : int, h : int, w : int, nc : int, _
        wc : int, mode : int, blkidx : ivec2, blkpos : ivec2)
    fir_tiled_body({n}, {n}, {TK})
endfunction
""")
for T in (3, 5, 7, 9, 11, 13):
    A(f"""function [] = __kernel__ separable_tiled_{T}(x : cube'unchecked, y : cube'unchecked'nocopy, _
        gy : vec'unchecked'hwconst, cy : int, gx : vec'unchecked'hwconst, cx : int, h : int, _
        w : int, nc : int, wc : int, mode : int, blkidx : ivec2, blkpos : ivec2)
    sep_tiled_body({T}, {TK})
endfunction
""")
A(f"""% The launch of a tiled kernel: blocks of 1 x {TW} threads, one a tile of {TK} rows x {TW}
% flat columns.
function d = tiled_dims(xr)
    d = [[ceil(size(xr, 0) / {TK}), {TW} * ceil(size(xr, 1) * size(xr, 2) / {TW})], [1, {TW}]]
endfunction

% Whether a tile's rows hold the halo of a window of n columns.
function ok : bool = tiled_fits(xr, n : int)
    ok = (n - 1) * size(xr, 2) <= {SW - TW} && numel(xr) < 2^31 - 2^26
endfunction
""")
A(f"""% The rows a thread of the fixed-size kernels computes.
function k : int = fixed_rows()
    k = {K}
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
""")
def chain(kinds, cond_of, call_of, indent="        "):
    out = []
    first = True
    for k in kinds:
        kw = "if" if first else "elseif"
        out.append(f"{indent}{kw} {cond_of(k)}")
        out.append(f"{indent}    {call_of(k)}")
        first = False
    out.append(f"{indent}endif")
    return "\n".join(out)
A("""% imfilter through a tiled kernel when the mask is 3x3, 5x5 or 7x7 and the halo fits
% (done), else nothing is done.
function [y, done : bool] = imfilter_tiled(xr, taps, rows : int, cols : int, cy : int, _
        cx : int, mode : int)
    y = xr
    done = rows == cols && (rows == 3 || rows == 5 || rows == 7) && tiled_fits(xr, cols)
    if done
        [h, w, nc] = [size(xr, 0), size(xr, 1), size(xr, 2)]
        y = uninit(size(xr))
        d = tiled_dims(xr)
""" + chain([3, 5, 7], lambda n: f"rows == {n}", lambda n: f"parallel_do(d, xr, y, taps, cy, cx, h, w, nc, w * nc, mode, imfilter_tiled_{n}x{n})") + """
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
""" + chain([3, 5, 7, 9, 11, 13], lambda T: f"T == {T}", lambda T: f"parallel_do(d, xr, y, gy, cy, gx, cx, h, w, nc, w * nc, mode, separable_tiled_{T})") + """
    endif
endfunction
""")
A("""% imfilter through a fixed-size kernel when the mask is 3x3, 5x5 or 7x7 (done), else
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
""" + chain([3, 5, 7], lambda n: f"rows == {n}", lambda n: f"parallel_do(d, xr, y, taps, cy, cx, h, w, nc, w * nc, mode, imfilter_{n}x{n})") + """
    endif
endfunction
""")
A("""% A separable filter through a fixed-size kernel when gy and gx have one odd length of 3 to
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
""" + chain([3, 5, 7, 9, 11, 13], lambda T: f"T == {T}", lambda T: f"parallel_do(d, xr, y, gy, cy, gx, cx, h, w, nc, w * nc, mode, separable_{T})") + """
    endif
endfunction
""")
print("\n".join(L))
