% ':' slices in kernels: x[i, :] (a row), x[:, j] (a column), x[i, :] of a cube (the rest
% of the dimensions, linearly), v[:] of a short vector, and a row stored with y[i, :] = v.
% Their lengths are array dimensions, known when the kernel is specialized if at most 16:
% the same kernel on arrays of other widths must be specialized again. Slices longer than 16
% run in the interpreter. Checked against host loops; every output is poisoned first.

function [] = __kernel__ rows(x : mat, s : vec, pos : int)
    r = x[pos, :]
    s[pos] = sum(r .* r)
endfunction

function [] = __kernel__ cols(x : mat, s : vec, pos : int)
    c = x[:, pos]
    s[pos] = sum(c) + c[0]
endfunction

function [] = __kernel__ cube_rows(x : cube, s : vec, w : vec, pos : int)
    r = x[pos, :]
    v = w[:]
    s[pos] = sum(r) * v[0] + numel(r)
endfunction

function [] = __kernel__ store_rows(x : mat, y : mat, pos : int)
    y[pos, :] = x[pos, :] * 2 + 1
endfunction

function x = make(m, n)
    x = zeros(m, n)
    for i = 0..m-1
        for j = 0..n-1
            x[i, j] = mod(i * 7 + j * 3, 11) - 5
        endfor
    endfor
endfunction

for n = [2, 3, 16, 17]
    m = 5
    x = make(m, n)
    s = ones(m) * -1000
    parallel_do(m, x, s, rows)
    for i = 0..m-1
        want = 0
        for j = 0..n-1
            want += x[i, j] * x[i, j]
        endfor
        assert(s[i] == want)
    endfor
    y = ones(m, n) * -1000
    parallel_do(m, x, y, store_rows)
    for i = 0..m-1
        for j = 0..n-1
            assert(y[i, j] == x[i, j] * 2 + 1)
        endfor
    endfor
    % columns: n threads, slices of length m
    s = ones(n) * -1000
    parallel_do(n, x, s, cols)
    for j = 0..n-1
        want = x[0, j]
        for i = 0..m-1
            want += x[i, j]
        endfor
        assert(s[j] == want)
    endfor
endfor

c = zeros(4, 3, 2)
for i = 0..3
    for j = 0..2
        for k = 0..1
            c[i, j, k] = i * 100 + j * 10 + k
        endfor
    endfor
endfor
w = [3, 1, 4]
s = ones(4) * -1
parallel_do(4, c, s, w, cube_rows)
for i = 0..3
    want = 0
    for j = 0..2
        for k = 0..1
            want += c[i, j, k]
        endfor
    endfor
    assert(s[i] == want * 3 + 6)
endfor
print "slices: ok"
