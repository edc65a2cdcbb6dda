% Texture reads (docs/language.md, "Texture modifiers"): seed 001's interpolate_hwtex
% ('hwtex_linear'clamped: bilinear, clamped edges) and 'hwtex_linear / 'hwtex_nearest reads in
% 1, 2 and 3 dimensions with other boundary rules, with int and scalar coordinates mixed;
% each against a host function that interpolates by hand (while loops: never run as kernels).
% Outputs poisoned first.

function [] = __kernel__ interpolate_hwtex (y : mat, x : mat'hwtex_linear'clamped, scale : scalar, pos : ivec2)
    y[pos] = x[scale * pos]
endfunction

% no boundary modifier: zeros outside, as any kernel read
function [] = __kernel__ lin1(y : vec, x : vec'hwtex_linear, pos : int)
    y[pos] = x[pos * 0.3 - 1.2]
endfunction

function [] = __kernel__ near2(y : mat, x : mat'hwtex_nearest'circular, pos : ivec2)
    y[pos] = x[pos[0] * 0.7 - 2.5, pos[1] * 1.3 + 0.5]
endfunction

function [] = __kernel__ lin3(y : cube, x : cube'hwtex_linear'mirror, pos : ivec3)
    y[pos] = x[pos[0] * 0.45, pos[1] * 0.8 - 1, pos[2] * 0.5]
endfunction

% an int first coordinate (no weight in that dimension), a scalar second
function [] = __kernel__ mixed(y : mat, x : mat'hwtex_linear'safe, pos : ivec2)
    y[pos] = x[pos[0], pos[1] * 0.5 + 0.25]
endfunction

% int coordinates read exactly their element
function [] = __kernel__ exact(y : mat, x : mat'hwtex_linear'clamped, pos : ivec2)
    y[pos] = x[pos]
endfunction

% one scalar index of a matrix: linear over its elements, interpolated along them
function [] = __kernel__ linear_index(y : vec, x : mat'hwtex_linear'clamped, pos : int)
    y[pos] = x[pos * 0.45 + 0.3]
endfunction

% ---- the references ----

function j = fix_index(i, n, rule)
    j = i
    if rule == 1          % clamped
        j = i < 0 ? 0 : (i > n - 1 ? n - 1 : i)
    elseif rule == 2      % circular (mod takes the dividend's sign)
        j = mod(mod(i, n) + n, n)
    elseif rule == 3      % mirror: |i| mod 2n, folded
        j = mod(abs(i), 2 * n)
        j = j < n ? j : 2 * n - 1 - j
    endif
endfunction

% x[c] for coordinates c (one per dimension of x), rule 0 zeros outside, else fix_index's;
% linear or nearest
function v = texel(x, c, rule, linear)
    D = numel(c)
    v = 0.0
    corner = 0
    while corner < 2^D
        w = 1.0
        off = 0
        inside = 1
        d = 0
        while d < D
            b = and(shr(corner, d), 1)
            f = linear ? floor(c[d]) : floor(c[d] + 0.5)
            wd = linear ? c[d] - f : 0.0
            w = w * (b == 1 ? wd : 1 - wd)
            i = fix_index(f + b, size(x, d), rule)
            if i < 0 || i > size(x, d) - 1
                inside = 0
            endif
            off = off * size(x, d) + i
            d += 1
        endwhile
        if w != 0 && inside == 1
            v += w * x[off]
        endif
        corner += 1
    endwhile
endfunction

function [] = check(name, got, want)
    k = 0
    while k < numel(want)
        if abs(got[k] - want[k]) > 1e-4 * (1 + abs(want[k]))
            print name, ": element ", k, " is ", got[k], ", expected ", want[k]
            assert(false)
        endif
        k += 1
    endwhile
endfunction

function [] = main()
    x2 = zeros(13, 11)
    x2[:, :] = mod((0..142) * 7.3, 50) - 12
    y = ones(40, 40) * -1e9
    parallel_do(size(y), y, x2, 0.37, interpolate_hwtex)
    want = zeros(40, 40)
    m = 0
    while m < 40
        n = 0
        while n < 40
            want[m, n] = texel(x2, [m, n] * 0.37, 1, true)
            n += 1
        endwhile
        m += 1
    endwhile
    check("interpolate_hwtex", y, want)

    x1 = mod((0..16) * 3.7, 10)
    y1 = ones(70) * -1e9
    parallel_do(numel(y1), y1, x1, lin1)
    want1 = zeros(70)
    m = 0
    while m < 70
        want1[m] = texel(x1, [m * 0.3 - 1.2], 0, true)
        m += 1
    endwhile
    check("lin1", y1, want1)

    y2 = ones(20, 9) * -1e9
    parallel_do(size(y2), y2, x2, near2)
    want2 = zeros(20, 9)
    m = 0
    while m < 20
        n = 0
        while n < 9
            want2[m, n] = texel(x2, [m * 0.7 - 2.5, n * 1.3 + 0.5], 2, false)
            n += 1
        endwhile
        m += 1
    endwhile
    check("near2", y2, want2)

    x3 = zeros(5, 6, 3)
    x3[:, :, :] = mod((0..89) * 5.1, 17)
    y3 = ones(14, 9, 5) * -1e9
    parallel_do(size(y3), y3, x3, lin3)
    want3 = zeros(14, 9, 5)
    m = 0
    while m < 14
        n = 0
        while n < 9
            k = 0
            while k < 5
                want3[m, n, k] = texel(x3, [m * 0.45, n * 0.8 - 1, k * 0.5], 3, true)
                k += 1
            endwhile
            n += 1
        endwhile
        m += 1
    endwhile
    check("lin3", y3, want3)

    y4 = ones(15, 25) * -1e9
    parallel_do(size(y4), y4, x2, mixed)
    want4 = zeros(15, 25)
    m = 0
    while m < 15
        n = 0
        while n < 25
            want4[m, n] = texel(x2, [m, n * 0.5 + 0.25], 0, true)
            n += 1
        endwhile
        m += 1
    endwhile
    check("mixed", y4, want4)

    y5 = ones(13, 11) * -1e9
    parallel_do(size(y5), y5, x2, exact)
    check("exact", y5, x2)

    x2v = zeros(143)
    x2v[:] = x2[:]   % the matrix's elements in row-major order, as a vec
    y6 = ones(330) * -1e9
    parallel_do(numel(y6), y6, x2, linear_index)
    want6 = zeros(330)
    m = 0
    while m < 330
        want6[m] = texel(x2v, [m * 0.45 + 0.3], 1, true)
        m += 1
    endwhile
    check("linear_index", y6, want6)
    print "hwtex ok"
endfunction
