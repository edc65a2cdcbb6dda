% Reductions along the contiguous (last) dimension: sum, mean, max and min of x .* y + 0.25
% along 1 of matrices and along 2 of a cube, with runs of 7, 70, 130, 256, 300, 520, 1000
% and 1031 elements and 1 to 1001 runs (on the CPU, launch_along's 32 lanes per run from 256
% elements, whole rows of lanes in vector registers: emit_c.c along_loop's fixed copy; 16
% and 8 lanes below; 1001 runs split among the workers at positions that are not whole rows).
% Against two references computed by kernels here: a serial walk of each run (every target:
% within 2 n u sum |v|; max and min exactly), and, where the reduction runs as the CPU's
% lanes (a probe below tells), the documented order itself (docs/language.md, "Host array
% expressions": lane c adds elements c, c + C, ... in order, the C partial results are added
% in lane order, then the last n mod C elements): bit for bit. Ints: exactly. tests/run.sh
% runs this with the results poisoned first (OQ_DEV_ALONG_POISON=1), with 3 workers, and
% checks that --target cpu reports the exact mode in single and double precision.

% e = x .* y + 0.25 along each row: op 0 sum, 1 mean, 2 max, 3 min; walked in order; t the
% bound 2 n u sum |v| (u = 2^-24, or 2^-53 in double)
function [] = __kernel__ walk(x : mat'unchecked, y : mat'unchecked, r : vec'unchecked, t : vec'unchecked, op : int, u : scalar, pos : int)
    n = size(x, 1)
    acc = x[pos, 0] * y[pos, 0] + 0.25
    mag = abs(acc)
    for k = 1..n - 1
        v = x[pos, k] * y[pos, k] + 0.25
        mag = mag + abs(v)
        if op <= 1
            acc = acc + v
        elseif op == 2
            acc = v == v && (acc != acc || v > acc) ? v : acc
        else
            acc = v == v && (acc != acc || v < acc) ? v : acc
        endif
    endfor
    r[pos] = op == 1 ? acc / n : acc
    t[pos] = op == 1 ? 2 * u * mag : 2 * n * u * mag
endfunction

% the same in the documented lanes' order: C lanes (32, halved while n < 8 C, none under 8)
function [] = __kernel__ lanes(x : mat'unchecked, y : mat'unchecked, r : vec'unchecked, op : int, pos : int)
    n = size(x, 1)
    C = 32
    while C >= 8 && n < 8 * C
        C = C / 2
    endwhile
    if C < 8
        C = 1
    endif
    m = int(floor(n / C))
    acc = 0.0
    for c = 0..C - 1
        p = x[pos, c] * y[pos, c] + 0.25
        for k = 1..m - 1
            v = x[pos, k * C + c] * y[pos, k * C + c] + 0.25
            if op <= 1
                p = p + v
            elseif op == 2
                p = v == v && (p != p || v > p) ? v : p
            else
                p = v == v && (p != p || v < p) ? v : p
            endif
        endfor
        if c == 0
            acc = p
        elseif op <= 1
            acc = acc + p
        elseif op == 2
            acc = p == p && (acc != acc || p > acc) ? p : acc
        else
            acc = p == p && (acc != acc || p < acc) ? p : acc
        endif
    endfor
    for j = m * C..n - 1
        v = x[pos, j] * y[pos, j] + 0.25
        if op <= 1
            acc = acc + v
        elseif op == 2
            acc = v == v && (acc != acc || v > acc) ? v : acc
        else
            acc = v == v && (acc != acc || v < acc) ? v : acc
        endif
    endfor
    r[pos] = op == 1 ? acc / n : acc
endfunction

function r = reduce(x, y, d, op)
    match op with
    | 0 -> r = sum(x .* y + 0.25, d)
    | 1 -> r = mean(x .* y + 0.25, d)
    | 2 -> r = max(x .* y + 0.25, [], d)
    | _ -> r = min(x .* y + 0.25, [], d)
    endmatch
endfunction

function [] = agree(got, ref, tol, what)
    if numel(got) != numel(ref)
        error(what, ": ", numel(got), " elements, not ", numel(ref))
    endif
    for k = 0..numel(ref) - 1
        g = got[k]
        e = ref[k]
        if !(abs(g - e) <= tol[k] || (g != g && e != e))
            error(what, ": element ", k, ": ", g, " vs ", e, " (within ", tol[k], ")")
        endif
    endfor
endfunction

% every op on x and y (the same shape, reduced along their last dimension d); rows: the
% runs as a [runs, n] matrix
function [] = each(x, y, d, exact, u, what)
    s = size(x)
    n = s[d]
    runs = int(numel(x) / n)
    xr = reshape(x, [runs, n])
    yr = reshape(y, [runs, n])
    for op = 0..3
        r = zeros(runs)
        t = zeros(runs)
        parallel_do(runs, xr, yr, r, t, op, u, walk)
        got = reduce(x, y, d, op)
        agree(got, r, op >= 2 ? 0 * t : t, what + " op " + op + " (walk)")
        if exact
            q = zeros(runs)
            parallel_do(runs, xr, yr, q, op, lanes)
            agree(got, q, 0 * t, what + " op " + op + " (lanes' order)")
        endif
    endfor
endfunction

% which order the reductions take: rows [big, 1, 1, ...] of 256 (big = 2^24, or 2^53 in
% double: big + 1 rounds to big; 8 rows: arrays of fewer than 1024 elements stay in the
% runtime): walked in order, big; in double by the runtime (interp, float), big + 255
% rounded; in 32 lanes, big + 8 * 31 (lane 0 keeps big, each other lane has 8); the bit-for-bit
% check is the CPU back end's (CUDA's lane counts depend on the launch: docs/language.md)
one = zeros(1, 1)
one[0] = 1 + 2^-30
double = one[0] != 1
u = double ? 2^-53 : 2^-24
big = double ? 2^53 : 2^24
rows = ones(8, 256)
rows[:, 0] = big
probe = sum(rows .* 1, 1)
exact = $target("cpu") && probe[0] == big + 248   % (CUDA's lanes follow their own counts)
if exact
    print "lanes' order: exact"
endif

shapes = cell(8)
shapes[0] = [1, 1031]
shapes[1] = [7, 256]
shapes[2] = [33, 1000]
shapes[3] = [1001, 300]   % runs split among the workers at other places than rows
shapes[4] = [3, 5, 520]   % along dimension 2 of a cube
shapes[5] = [200, 7]      % short runs: one pass
shapes[6] = [9, 130]      % 16 lanes
shapes[7] = [20, 70]      % 8 lanes
for i = 0..7
    s = shapes[i]
    d = numel(s) - 1
    x = rand(s) - 0.5
    y = rand(s)
    each(x, y, d, exact, u, "float " + i)
    % NaNs: max and min skip them (a run of NaNs only gives NaN)
    xn = copy(x)
    for k = 0..numel(xn) - 1
        if mod(k, 13) == 5 || k < s[d]
            xn[k] = 0 / 0
        endif
    endfor
    for op = 2..3
        runs = int(numel(x) / s[d])
        r = zeros(runs)
        t = zeros(runs)
        parallel_do(runs, reshape(xn, [runs, s[d]]), reshape(y, [runs, s[d]]), r, t, op, u, walk)
        agree(reduce(xn, y, d, op), r, zeros(runs), "NaN " + i + " op " + op)
    endfor
    % ints: exact sums, means within rounding, max and min exact
    g = int(floor(rand(s) * 2000)) - 1000
    h = int(floor(rand(s) * 3)) + 1
    n = s[d]
    runs = int(numel(g) / n)
    gr = reshape(g, [runs, n])
    hr = reshape(h, [runs, n])
    want = zeros(runs)
    hi = zeros(runs)
    for o = 0..runs - 1
        a = 0
        b = gr[o, 0] * hr[o, 0]
        for k = 0..n - 1
            a = a + gr[o, k] * hr[o, k]
            b = max(b, gr[o, k] * hr[o, k])
        endfor
        want[o] = a
        hi[o] = b
    endfor
    agree(sum(g .* h, d), want, 0 * want, "int sum " + i)
    agree(max(g .* h, [], d), hi, 0 * want, "int max " + i)
    agree(mean(g .* h, d), want / n, 1e-6 * abs(want / n), "int mean " + i)
endfor
print "ok"
