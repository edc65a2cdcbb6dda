% Reductions along a dimension, every kind (sum, mean, prod, max, min) of an element-wise
% expression along dimensions 0, 1 and 2 of matrices, cubes and a vec, whose reduced runs are
% of 1, 2, 3, 7, 31, 33, 129, 700, 1000+ and 12000 elements (not multiples of the lanes), against a
% serial walk of each run in this program (a while loop: never a parallel loop).
% On cpu and cuda (docs/language.md, "Host array expressions") the shape picks one kernel
% pass or lanes whose partial results a second kernel combines; tests/run.sh runs this again
% with the lanes forced (OQ_DEV_ALONG_LANES), the GPU's form (OQ_DEV_ALONG_GPU) and the
% results poisoned before the kernels write them (OQ_DEV_ALONG_POISON). Floats agree within
% the bound of any order of the operations: 2 n u sum |v| for sums (u = 2^-24: the kernels
% and this walk both add in float; 2 n u |p| for products); ints exactly.

% the reduction of x * a + b along d: op 0 sum, 1 mean, 2 prod, 3 max, 4 min
function r = reduce(x, a, b, d, op)
    match op with
    | 0 -> r = sum(x * a + b, d)
    | 1 -> r = mean(x * a + b, d)
    | 2 -> r = prod(x * a + b, d)
    | 3 -> r = max(x * a + b, [], d)
    | _ -> r = min(x * a + b, [], d)
    endmatch
endfunction

% all five along d of the cube c, each run walked in order; tol: the rounding bound of each
function [rs, rm, rp, rx, rn, ts, tp] = walked(c, a, b, d)
    s = size(c, 0..2)
    n = s[d]
    t = copy(s)
    t[d] = 1
    rs = zeros(t)
    rm = zeros(t)
    rp = zeros(t)
    rx = zeros(t)
    rn = zeros(t)
    ts = zeros(t)
    tp = zeros(t)
    for i = 0..t[0] - 1
        for j = 0..t[1] - 1
            for l = 0..t[2] - 1
                p = [i, j, l]
                v = c[i, j, l] * a + b
                s1 = v
                p1 = v
                hi = v
                lo = v
                mag = abs(v)
                k = 1
                while k < n
                    p[d] = k
                    v = c[p[0], p[1], p[2]] * a + b
                    s1 = s1 + v
                    p1 = p1 * v
                    hi = v == v && (hi != hi || v > hi) ? v : hi
                    lo = v == v && (lo != lo || v < lo) ? v : lo
                    mag = mag + abs(v)
                    k = k + 1
                endwhile
                rs[i, j, l] = s1
                rm[i, j, l] = s1 / n
                rp[i, j, l] = p1
                rx[i, j, l] = hi
                rn[i, j, l] = lo
                ts[i, j, l] = 2.4e-7 * n * mag
                tp[i, j, l] = 2.4e-7 * n * abs(p1)
            endfor
        endfor
    endfor
endfunction

function [] = agree(got, ref, tol, what)
    if numel(got) != numel(ref)
        error(what, ": ", numel(got), " elements, not ", numel(ref))
    endif
    for k = 0..numel(ref) - 1
        g = got[k]
        e = ref[k]
        if !(abs(g - e) <= tol[k] || (g != g && e != e))
            error(what, ": element ", k, ": ", g, " vs ", e)
        endif
    endfor
endfunction

% x (2-D or 3-D, or a vec) along each dimension; ints: exact, and prod only where asked
function [] = each(x, a, b, what, exact, with_prod)
    s = size(x, 0..2)
    if ndims(x) == 1
        s = [1, numel(x), 1]   % a vec is a 1 x N row
    endif
    c = reshape(x, s)
    for d = 0..2
        [rs, rm, rp, rx, rn, ts, tp] = walked(c, a, b, d)
        z = exact ? 0 * ts : ts
        agree(reduce(x, a, b, d, 0), rs, z, what + " sum along " + d)
        agree(reduce(x, a, b, d, 1), rm, exact ? 1e-6 * abs(rm) : z / s[d], what + " mean along " + d)
        if with_prod
            agree(reduce(x, a, b, d, 2), rp, exact ? 0 * tp : tp, what + " prod along " + d)
        endif
        agree(reduce(x, a, b, d, 3), rx, 0 * ts, what + " max along " + d)
        agree(reduce(x, a, b, d, 4), rn, 0 * ts, what + " min along " + d)
    endfor
endfunction

% NaNs: at the start of a run, inside lanes, and a whole run (max and min skip them; an
% all-NaN run gives NaN)
function [] = with_nans(x, what)
    s = size(x, 0..2)
    c = reshape(copy(x), s)
    k = 0
    while k < numel(c)
        if mod(k, 7) == 3 || k == 0
            c[k] = 0 / 0
        endif
        k = k + 1
    endwhile
    for d = 0..2
        q = copy(c)   % the run through [1, 1, 1] (else [0, 0, 0]) all NaN
        p = [min(1, s[0] - 1), min(1, s[1] - 1), min(1, s[2] - 1)]
        k = 0
        while k < s[d]
            p[d] = k
            q[p[0], p[1], p[2]] = 0 / 0
            k = k + 1
        endwhile
        [rs, rm, rp, rx, rn, ts, tp] = walked(q, 1.5, 0.25, d)
        exact = zeros(size(rx))   % (ts is NaN where a run has NaNs)
        agree(reduce(q, 1.5, 0.25, d, 3), rx, exact, what + " NaN max along " + d)
        agree(reduce(q, 1.5, 0.25, d, 4), rn, exact, what + " NaN min along " + d)
    endfor
endfunction

% complex sums and means (the kernels add complex values; prod, max and min of complex
% values are the runtime's): within 4 n u sum |v| (real and imaginary parts each)
function [] = complex_each(z, what)
    s = size(z, 0..2)
    c = reshape(z, s)
    for d = 0..2
        n = s[d]
        t = copy(s)
        t[d] = 1
        rs = complex(zeros(t), zeros(t))
        ts = zeros(t)
        for i = 0..t[0] - 1
            for j = 0..t[1] - 1
                for l = 0..t[2] - 1
                    p = [i, j, l]
                    acc = c[i, j, l] * (1 - 0.5i) + 0.25
                    mag = abs(acc)
                    k = 1
                    while k < n
                        p[d] = k
                        v = c[p[0], p[1], p[2]] * (1 - 0.5i) + 0.25
                        acc = acc + v
                        mag = mag + abs(v)
                        k = k + 1
                    endwhile
                    rs[i, j, l] = acc
                    ts[i, j, l] = 4e-7 * n * mag
                endfor
            endfor
        endfor
        agree(sum(z * (1 - 0.5i) + 0.25, d), rs, ts, what + " complex sum along " + d)
        agree(mean(z * (1 - 0.5i) + 0.25, d), rs / n, ts / n, what + " complex mean along " + d)
    endfor
endfunction

% floats near 1 (products stay near 1): runs of 31 and 40, 7 and 1100, 1 and 1500, ...
shapes = cell(10)
shapes[0] = [31, 40]
shapes[1] = [7, 1100]
shapes[2] = [1100, 7]
shapes[3] = [1, 1500]
shapes[4] = [1500, 1]
shapes[5] = [3, 700, 2]
shapes[6] = [20, 2, 129]
shapes[7] = [5, 33, 31]
shapes[8] = [12000, 2]   % few results, long runs: folds of folds on the GPU
shapes[9] = [80, 7, 2]   % runs of 7, 2 apart: one pass on the GPU too
for i = 0..9
    each(rand(shapes[i]), 0.002, 0.999 + 0.0001 * i, "float " + i, false, true)
end
each(rand(3000), 0.002, 0.999, "vec", false, true)
with_nans(rand(33, 40), "33x40")
complex_each(complex(rand(7, 1100), rand(7, 1100) - 0.5), "7x1100")
complex_each(complex(rand(3, 700, 2), rand(3, 700, 2)), "3x700x2")
with_nans(rand(3, 700, 2), "3x700x2")

% a slice operand (the runtime reduces it: docs/language.md)
c3 = rand(40, 30, 3)
for d = 0..2
    [rs, rm, rp, rx, rn, ts, tp] = walked(reshape(copy(c3[:, :, 1]), [40, 30, 1]), 0.002, 0.999, d)
    agree(sum(c3[:, :, 1] * 0.002 + 0.999, d), rs, ts, "slice sum along " + d)
    agree(max(c3[:, :, 1] * 0.002 + 0.999, [], d), rx, 0 * ts, "slice max along " + d)
end

% ints: -1 and 1 (products stay ints), and wide values (sums exact, no products)
for i = 5..8
    g = rand(shapes[i == 5 ? 1 : i])
    each(int(g > 0.5) * 2 - 1, 1, 0, "int sign " + i, true, true)
    each(int(floor(g * 1000)) - 500, 3, i, "int wide " + i, true, false)
end
print "ok"
