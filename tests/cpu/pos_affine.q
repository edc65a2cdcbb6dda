% Indices a + b * pos[d] of 'unchecked accesses (a, b int parameters): in the C back end's
% row loops they are computed in int64 from the loop counter, so the loop vectorizes
% (emit_index.c em_pos_affine). Host slice expressions read their slices so; so do user
% kernels. Every result is compared exactly with a host loop (the same float operations).

function [] = __kernel__ strided(x : mat'unchecked, y : mat'unchecked, a : int, b : int, c : int, pos : ivec2)
    y[pos] = x[a + b * pos[0], pos[1] * c + c - 1] * 3 + x[pos[0] + a, 2 + pos[1]]
endfunction

function [] = same(a, b)
    assert(size(a) == size(b))
    for k = 0..numel(a) - 1
        if a[k] != b[k]
            error("element ", k, ": ", a[k], " vs ", b[k])
        endif
    endfor
endfunction

function [] = main()
    m = 70
    n = 90
    c3 = rand(m, n, 3)
    x = rand(2 * m + 5, 3 * n + 4)
    q = rand(12, 10, 40)

    % a plane of a cube (the benchmark's slice), and one along the first dimension
    w = c3[:, :, 1] .* 2 + c3[:, :, 0]
    r = zeros(m, n)
    for i = 0..m - 1
        for j = 0..n - 1
            r[i, j] = c3[i, j, 1] * 2 + c3[i, j, 0]
        endfor
    endfor
    same(w, r)
    u = c3[1, :, :] - c3[2, :, :] * 0.5
    r = zeros(n, 3)
    for j = 0..n - 1
        for k = 0..2
            r[j, k] = c3[1, j, k] - c3[2, j, k] * 0.5
        endfor
    endfor
    same(u, r)

    % steps and offsets in both dimensions
    v = x[3..2..2 * m + 1, 1..n] + x[0..m - 1, 4..3..3 * n + 1] * 2
    r = zeros(m, n)
    for i = 0..m - 1
        for j = 0..n - 1
            r[i, j] = x[3 + 2 * i, 1 + j] + x[i, 4 + 3 * j] * 2
        endfor
    endfor
    same(v, r)

    % a 3-D launch over a box of a cube; written into a slice in place
    z = q[2..9, :, 1..39] .* q[0..7, :, 0..38]
    r = zeros(8, 10, 39)
    for i = 0..7
        for j = 0..9
            for k = 0..38
                r[i, j, k] = q[2 + i, j, 1 + k] * q[i, j, k]
            endfor
        endfor
    endfor
    same(z, r)
    q2 = copy(q)
    q2[1..8, :, 0..38] = q[2..9, :, 1..39] - 1
    for i = 0..11
        for j = 0..9
            for k = 0..39
                e = (i >= 1 && i <= 8 && k <= 38) ? q[i + 1, j, k + 1] - 1 : q[i, j, k]
                assert(q2[i, j, k] == e)
            endfor
        endfor
    endfor

    % a user kernel: x[a + b*pos[0], c*pos[1] + c - 1], x[pos[0] + a, 2 + pos[1]]
    for t = [1, 2]
        y = zeros(m, n)
        parallel_do([m, n], x, y, 3, t, t + 1, strided)
        r = zeros(m, n)
        for i = 0..m - 1
            for j = 0..n - 1
                r[i, j] = x[3 + t * i, j * (t + 1) + (t + 1) - 1] * 3 + x[i + 3, 2 + j]
            endfor
        endfor
        same(y, r)
    endfor
endfunction
