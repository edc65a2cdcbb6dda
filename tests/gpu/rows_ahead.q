% Only for --target cuda (tests/gpu.sh runs this folder): the rows of a flat 2-D kernel of
% 2^22 positions or more load their x[pos + c] reads ahead (emit_cuda.c rows_ahead_loads),
% without boundary rules where every row of the GPU thread is inside: each boundary rule,
% edge rows and columns where that test fails, and reads of an array the kernel also writes
% (not loaded ahead). Outputs are filled with -999 first; reference: the same formula in
% host code at the edges and at samples.
function [] = __kernel__ k_rules(a : mat'clamped, b : mat'circular, c : mat'mirror, d : mat'safe, y : mat'unchecked, pos : ivec2)
    y[pos] = a[pos + [1, 0]] - a[pos - [0, 2]] + 2 * b[pos + [0, 1]] - b[pos - [1, 0]] + 3 * c[pos + [2, 1]] - c[pos - [1, 1]] + d[pos + [0, 1]] + d[pos - [1, 0]] / 4
endfunction
function [] = __kernel__ k_inplace(x : mat'clamped, pos : ivec2)
    x[pos] = x[pos] + 0.5 * x[pos + [0, 1]]
endfunction
function v = clampi(i, n)
    v = min(max(i, 0), n - 1)
endfunction
function v = circi(i, n)
    v = mod(i + n, n)
endfunction
function v = mirri(i, n)
    if i < 0
        v = -i
    elseif i >= n
        v = 2 * n - 1 - i
    else
        v = i
    endif
endfunction
function v = safe(d, i, j)
    if i < 0 || j < 0 || i >= size(d, 0) || j >= size(d, 1)
        v = 0
    else
        v = d[i, j]
    endif
endfunction
function v = ref(a, b, c, d, i, j)
    m = size(a, 0)
    n = size(a, 1)
    v = a[clampi(i + 1, m), j] - a[i, clampi(j - 2, n)] + 2 * b[i, circi(j + 1, n)] - b[circi(i - 1, m), j] + _
        3 * c[mirri(i + 2, m), mirri(j + 1, n)] - c[mirri(i - 1, m), mirri(j - 1, n)] + safe(d, i, j + 1) + safe(d, i - 1, j) / 4
endfunction
% m not a multiple of the 4 rows a thread runs; n = 2049 gives blocks of one row (b0 = 1: a
% thread's rows are consecutive and, inside, run without tests), n = 2053 (prime) blocks of
% many rows (b0 > 1: every row tested)
function [] = check_rules(m, n)
    a = rand(m, n)
    b = rand(m, n)
    c = rand(m, n)
    d = rand(m, n)
    y = zeros(m, n) - 999
    parallel_do(size(y), a, b, c, d, y, k_rules)
    rows = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 511, 512, 1021, 1022, 1023, 1024, 1025, 1026, 1027, m-9, m-8, m-7, m-6, m-5, m-4, m-3, m-2, m-1]
    cols = [0, 1, 2, 3, 31, 32, 1000, n-3, n-2, n-1]
    for i = rows
        for j = cols
            assert(abs(y[i, j] - ref(a, b, c, d, i, j)) <= 1e-4 * (1 + abs(ref(a, b, c, d, i, j))))
        endfor
    endfor
    for i = 0..331..m-1
        for j = 0..17..n-1
            assert(abs(y[i, j] - ref(a, b, c, d, i, j)) <= 1e-4 * (1 + abs(ref(a, b, c, d, i, j))))
        endfor
    endfor
endfunction
function [] = main()
    check_rules(2053, 2049)
    check_rules(2051, 2053)
    m = 2053
    n = 2049
    % in place: x[pos] is written, so nothing is loaded ahead; every element is read before
    % its own write only (the right neighbour's old or new value races in Quasar too, so the
    % test reads columns where the neighbour is the last column, clamped to itself)
    x = rand(m, n)
    x0 = x + 0
    parallel_do(size(x), x, k_inplace)
    for i = 0..97..m-1
        assert(abs(x[i, n-1] - 1.5 * x0[i, n-1]) <= 1e-5)
    endfor
    print "rows_ahead: ok"
endfunction
