% Scalar indices far outside every array, NaN and fractions, read and written with the
% zero rule (no modifier) and 'safe, in 1-D and 2-D, and circular indices of large values:
% with 32-bit index arithmetic (the idx32 key bit) a value past 2^31 must stay outside
% (never wrap into the array) and 'circular must still wrap its exact value. Expected
% values come from host loops.

function [] = __kernel__ reads(x : vec, m : mat, xc : vec'circular, v : vec, out : mat, pos : int)
    t = v[pos]
    out[pos, 0] = x[t]
    out[pos, 1] = m[1, t]
    out[pos, 2] = m[t, 2]
    out[pos, 3] = x[t * 1000 + 3]
    out[pos, 4] = xc[int(t)]
endfunction

function [] = __kernel__ writes(y : vec'safe, v : vec, pos : int)
    y[v[pos]] += 1
endfunction

% a real position on arguments of the launch's shape (their x[pos] needs no bounds test:
% the plan must still resolve the scalar indices)
function [] = __kernel__ twice(x : cube, y : cube, pos : vec3)
    y[pos] = 2 * x[pos]
endfunction

% the host's reading of a scalar index: truncated toward zero, inside when -1 < t < n
function r = host_read(x, t)
    r = 0
    if t > -1 && t < numel(x)
        r = x[int(t)]
    endif
endfunction

function [] = main()
    n = 7
    x = zeros(n)
    m = zeros(3, 5)
    for i = 0..n-1
        x[i] = 10 + i
    endfor
    for i = 0..2
        for j = 0..4
            m[i, j] = 100 * i + j
        endfor
    endfor
    big = 2147483648
    vals = [0, 3, 6.5, -0.5, -1, 7, 1e10, -1e10, 0/0, big, big + 7, 2 * big + 3, 4 * big + 1, 1e30, -big, 16777219, 2.9e6]
    nv = numel(vals)
    out = zeros(nv, 5)
    parallel_do(nv, x, m, x, vals, out, reads)
    y = zeros(n)
    parallel_do(nv, y, vals, writes)
    mrow = zeros(5)
    for j = 0..4
        mrow[j] = m[1, j]
    endfor
    mcol = zeros(3)
    for i = 0..2
        mcol[i] = m[i, 2]
    endfor
    for k = 0..nv-1
        t = vals[k]
        assert(out[k, 0] == host_read(x, t))
        assert(out[k, 1] == host_read(mrow, t))
        assert(out[k, 2] == host_read(mcol, t))
        assert(out[k, 3] == host_read(x, t * 1000 + 3))
        if t > -1e9 && t < 1e9
            c = mod(int(t), n)
            c = c < 0 ? c + n : c
            assert(out[k, 4] == x[c])
        endif
    endfor
    expect = zeros(n)
    for k = 0..nv-1
        t = vals[k]
        if t > -1 && t < n
            expect[int(t)] += 1
        endif
    endfor
    for i = 0..n-1
        assert(y[i] == expect[i])
    endfor
    c = zeros(4, 6, 3)
    for i = 0..3
        for j = 0..5
            for k = 0..2
                c[i, j, k] = i * 100 + j * 10 + k
            endfor
        endfor
    endfor
    d = zeros(4, 6, 3)
    parallel_do(size(c), c, d, twice)
    for i = 0..3
        for j = 0..5
            for k = 0..2
                assert(d[i, j, k] == 2 * c[i, j, k])
            endfor
        endfor
    endfor
    print "index_wide ok"
endfunction
