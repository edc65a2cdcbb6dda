#!/usr/bin/env python3
"""tools/gen_imfilter_fixed.py: writes the fixed-size kernels of lib/imfilter.q (the section
from "% ---- Fixed-size kernels" up to imfilter itself) to stdout. The macros are spelled
out with literal row and tap numbers, one call per row and per tap row, because kernels
compile them to straight-line code only when every number is a literal (the C compiler and
NVRTC do not unroll Quasar's loops); writing those calls by hand would be error-prone.
Usage: python3 tools/gen_imfilter_fixed.py [K]   (K: output rows a thread, default 8, at
most KMAX), then replace the section of lib/imfilter.q with the output; run
tests/lang/lib_imfilter_fixed.q after."""
L = []
A = L.append
KMAX = 8
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
endmacro

% Input row r of the window (R + K - 1 rows), added to every output row it reaches; the
% row by the boundary rule (rule) or directly.
macro [] = fir_row(r, R, C, K, rule, NC)
    if r < R + K - 1
        i = i0 + r - cy
        if rule
            i = bnd_index(i, h, mode)
        endif
        if i >= 0
            fir_load(C, NC)''')
for m in range(7):
    A(f'''            fir_acc(r, {m}, t{m}, R, C, K)''')
A('''        endif
    endif
endmacro

% The body of a correlation with an R x C mask (R, C at most 7), K rows a thread.
macro [] = fir2d_body(R, C, K, NC)
    fixed_start(C, R, K)
    if q < wc && !cols
        fir_edge(R, C, K)
    elseif q < wc''')
for m in range(7):
    A(f'''        t{m} = zeros(7)''')
for m in range(7):
    A(f'''        fir_taps({m}, t{m}, R, C)''')
A('''        v = zeros(7)
        if rows''')
for r in range(7 + KMAX - 1):
    A(f'''            fir_row({r}, R, C, K, false, NC)''')
A('''        else''')
for r in range(7 + KMAX - 1):
    A(f'''            fir_row({r}, R, C, K, true, NC)''')
A('''        endif
        fixed_store(a, K)
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
endmacro

% Separable: input row r filtered along the row (taps tx), then times tap m of ty into
% output row r - m, for each output row it reaches.
macro [] = sep_row(r, T, K, rule, NC)
    if r < T + K - 1
        i = i0 + r - cy
        if rule
            i = bnd_index(i, h, mode)
        endif
        if !rule || i >= 0
            base = i * wc + q - cx * NC
            s = tx[0] * x[base]''')
for n in range(1, 13):
    A(f'''            if {n} < T
                s += tx[{n}] * x[base + {n} * NC]
            endif''')
for m in range(13):
    A(f'''            if {m} < T && r - {m} >= 0 && r - {m} < K
                a[r - {m}] += ty[{m}] * s
            endif''')
A('''        endif
    endif
endmacro

% The body of a separable filter of T taps each way (T at most 13), K rows a thread.
macro [] = sep_body(T, K, NC)
    fixed_start(T, T, K)
    if q < wc && !cols
        sep_edge(T, K)
    elseif q < wc
        tx = zeros(13)
        ty = zeros(13)''')
for n in range(13):
    A(f'''        if {n} < T
            tx[{n}] = gx[{n}]
            ty[{n}] = gy[{n}]
        endif''')
A('''        if rows''')
for r in range(13 + KMAX - 1):
    A(f'''            sep_row({r}, T, K, false, NC)''')
A('''        else''')
for r in range(13 + KMAX - 1):
    A(f'''            sep_row({r}, T, K, true, NC)''')
A('''        endif
        fixed_store(a, K)
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
import sys
K = int(sys.argv[1]) if len(sys.argv) > 1 else 8
# One kernel per size and channel count: _c1 and _c3 read with literal offsets (gray and
# colour images), the plain name takes nc at run time.
for n in (3, 5, 7):
    for sfx, NC in (("", "nc"),):
        A(f"""function [] = __kernel__ imfilter_{n}x{n}{sfx}(x : cube'unchecked, y : cube'unchecked'nocopy, _
        mask : vec'unchecked'hwconst, cy : int, cx : int, h : int, w : int, nc : int, _
        wc : int, mode : int, pos : ivec2)
    fir2d_body({n}, {n}, {K}, {NC})
endfunction
""")
for T in (3, 5, 7, 9, 11, 13):
    for sfx, NC in (("", "nc"),):
        A(f"""function [] = __kernel__ separable_{T}{sfx}(x : cube'unchecked, y : cube'unchecked'nocopy, _
        gy : vec'unchecked'hwconst, cy : int, gx : vec'unchecked'hwconst, cx : int, h : int, _
        w : int, nc : int, wc : int, mode : int, pos : ivec2)
    sep_body({T}, {K}, {NC})
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
fcases = [(n, sfx) for n in (3, 5, 7) for sfx in ("",)]
def fcond(k):
    n, sfx = k
    c = f"rows == {n}"
    if sfx: c += f" && nc == {sfx[2]}"
    return c
A("""% imfilter through a fixed-size kernel when the mask is 3x3, 5x5 or 7x7 (done), else
% nothing is done.
function [y, done : bool] = imfilter_fixed(xr, taps, rows : int, cols : int, cy : int, _
        cx : int, mode : int)
    y = xr
    done = rows == cols && (rows == 3 || rows == 5 || rows == 7) && fixed_fits(xr)
    if done
        [h, w, nc] = [size(xr, 0), size(xr, 1), size(xr, 2)]
        y = uninit(size(xr))
        d = fixed_dims(xr)
""" + chain(fcases, fcond, lambda k: f"parallel_do(d, xr, y, taps, cy, cx, h, w, nc, w * nc, mode, imfilter_{k[0]}x{k[0]}{k[1]})") + """
    endif
endfunction
""")
scases = [(T, sfx) for T in (3, 5, 7, 9, 11, 13) for sfx in ("",)]
def scond(k):
    T, sfx = k
    c = f"T == {T}"
    if sfx: c += f" && nc == {sfx[2]}"
    return c
A("""% A separable filter through a fixed-size kernel when gy and gx have one odd length of 3 to
% 13 (done), else nothing is done.
function [y, done : bool] = separable_fixed(xr, gy, cy : int, gx, cx : int, mode : int)
    y = xr
    T = numel(gx)
    done = numel(gy) == T && T >= 3 && T <= 13 && mod(T, 2) == 1 && fixed_fits(xr)
    if done
        [h, w, nc] = [size(xr, 0), size(xr, 1), size(xr, 2)]
        y = uninit(size(xr))
        d = fixed_dims(xr)
""" + chain(scases, scond, lambda k: f"parallel_do(d, xr, y, gy, cy, gx, cx, h, w, nc, w * nc, mode, separable_{k[0]}{k[1]})") + """
    endif
endfunction
""")
print("\n".join(L))
