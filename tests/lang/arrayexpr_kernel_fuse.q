% A kernel's launch fused with the host statement after it (transform_arrayexpr.c,
% fuse_launch): `parallel_do(dims, u, g, k)`, k writing g[pos] = e as its last statement,
% then a statement reading g is one kernel (on cpu and cuda; the interpreter runs the two);
% where g's value dies there g is not written, else the kernel writes it too. Each result
% is checked against plain loops (floats within 1e-4 after a few iterations: the kernel
% keeps e in a register as float, the reference rounds alike), ints exactly. The cases that
% must not fuse check the values the launch wrote. tests/run.sh checks with --profile
% which launches ran fused (expr_..._tv_grad) and which on their own (tv_grad).

function [] = __kernel__ tv_grad(x : mat'clamped, g : mat'unchecked, pos : ivec2)
    dx = x[pos + [0, 1]] - x[pos]
    dy = x[pos + [1, 0]] - x[pos]
    dxm = x[pos] - x[pos - [0, 1]]
    dym = x[pos] - x[pos - [1, 0]]
    g[pos] = dx / sqrt(dx*dx + dy*dy + 1e-2) - dxm / sqrt(dxm*dxm + dym*dym + 1e-2) + _
             dy / sqrt(dx*dx + dy*dy + 1e-2) - dym / sqrt(dxm*dxm + dym*dym + 1e-2)
endfunction

% reads the array it writes: not fused
function [] = __kernel__ grad_acc(x : mat'clamped, g : mat'unchecked, pos : ivec2)
    g[pos] = g[pos] + x[pos + [0, 1]] - x[pos]
endfunction

% writes two arrays: not fused
function [] = __kernel__ grad_two(x : mat'clamped, g : mat'unchecked, h : mat'unchecked, pos : ivec2)
    h[pos] = 2 * x[pos]
    g[pos] = x[pos + [0, 1]] - x[pos]
endfunction

% a loop and an if that write no array, then g[pos] = e: fused
function [] = __kernel__ smooth3(x : cube'clamped, g : cube'unchecked, w : scalar, pos : ivec3)
    s = 0.0
    for d = -1..1
        s = s + x[pos + [0, d, 0]]
    endfor
    if pos[2] > 0
        s = s + w * x[pos - [0, 0, 1]]
    endif
    g[pos] = s
endfunction

% a local named like a function the statement after the launch calls: not fused
function [] = __kernel__ cosvar(x : mat'clamped, g : mat'unchecked, pos : ivec2)
    cos = x[pos] * 2
    g[pos] = cos + 1
endfunction

% a vector, pos : int
function [] = __kernel__ diff1(x : vec'clamped, g : vec'unchecked, pos : int)
    g[pos] = x[pos + 1] - x[pos]
endfunction

% g untyped: an int array stays int
function [] = __kernel__ grad_int(x : mat'clamped, g, pos : ivec2)
    g[pos] = 3.75 * (x[pos + [0, 1]] - x[pos]) + 0.5
endfunction

function r = grad_ref(x)
    m = size(x, 0)
    n = size(x, 1)
    r = zeros(m, n)
    for i = 0..m - 1
        for j = 0..n - 1
            xc = x[i, j]
            dx = x[i, min(j + 1, n - 1)] - xc
            dy = x[min(i + 1, m - 1), j] - xc
            dxm = xc - x[i, max(j - 1, 0)]
            dym = xc - x[max(i - 1, 0), j]
            r[i, j] = dx / sqrt(dx*dx + dy*dy + 1e-2) - dxm / sqrt(dxm*dxm + dym*dym + 1e-2) + _
                      dy / sqrt(dx*dx + dy*dy + 1e-2) - dym / sqrt(dxm*dxm + dym*dym + 1e-2)
        endfor
    endfor
endfunction

function [] = near(a, b, tol)
    assert(size(a) == size(b))
    for k = 0..numel(a) - 1
        if abs(a[k] - b[k]) > tol * (1 + abs(b[k]))
            error("element ", k, ": ", a[k], " vs ", b[k])
        endif
    endfor
endfunction

% the TV loop: g dies in the update, and the next iteration's launch writes it anew
function u = tv(noisy, iters)
    g = zeros(size(noisy))
    u = noisy
    for it = 1..iters
        parallel_do(size(u), u, g, tv_grad)
        u = u - 0.05 * ((u - noisy) - 0.2 * g)
    endfor
endfunction

function u = tv_ref(noisy, iters)
    u = copy(noisy)
    for it = 1..iters
        g = grad_ref(u)
        v = zeros(size(u))
        for k = 0..numel(u) - 1
            v[k] = u[k] - 0.05 * ((u[k] - noisy[k]) - 0.2 * g[k])
        endfor
        u = v
    endfor
endfunction

% g is read after the loop: the fused kernel writes it too (the last iteration's gradient)
function [u, g] = tv_keep(noisy, iters)
    g = zeros(size(noisy))
    u = noisy
    for it = 1..iters
        parallel_do(size(u), u, g, tv_grad)
        u = u - 0.05 * ((u - noisy) - 0.2 * g)
    endfor
endfunction

% after the loop ANOTHER launch writes part of g: no kill (only the fusing launch, run again,
% covers g), so the fused kernel writes g and the part the later launch skips keeps the last
% iteration's gradient
function [u, g] = tv_then_part(noisy, iters)
    g = zeros(size(noisy))
    u = noisy
    for it = 1..iters
        parallel_do(size(u), u, g, tv_grad)
        u = u - 0.05 * ((u - noisy) - 0.2 * g)
    endfor
    v = zeros(size(noisy, 0), 3)
    parallel_do(size(v), v, g, tv_grad)
endfunction

function [] = main()
    m = 40
    n = 48
    noisy = rand(m, n)
    keep = copy(noisy)
    near(tv(noisy, 5), tv_ref(noisy, 5), 1e-4)
    near(noisy, keep, 0)   % u = noisy aliased it: never written in place

    [u, g] = tv_keep(noisy, 3)
    near(u, tv_ref(noisy, 3), 1e-4)
    near(g, grad_ref(tv_ref(noisy, 2)), 1e-4)

    [u, g] = tv_then_part(noisy, 3)
    near(u, tv_ref(noisy, 3), 1e-4)
    gl = grad_ref(tv_ref(noisy, 2))
    for i = 0..m - 1
        for j = 3..n - 1
            assert(abs(g[i, j] - gl[i, j]) <= 1e-4 * (1 + abs(gl[i, j])))
        endfor
        for j = 0..2
            assert(abs(g[i, j]) <= 1e-4)   % the gradient of a zero v (tv_grad of zeros)
        endfor
    endfor

    % an alias of g sees the launch's writes
    x = rand(m, n)
    g = ones(m, n) * 1e30
    h = g
    parallel_do(size(x), x, g, tv_grad)
    w = x + 2 * g
    gr = grad_ref(x)
    near(h, gr, 1e-4)
    near(w, x + 2 * gr, 1e-4)

    % g read later: the fused kernel writes g too, and an alias sees it; an alias that is
    % also an operand of the statement: not fused (the launch runs first)
    g = ones(m, n) * 1e30
    h = g
    parallel_do(size(x), x, g, tv_grad)
    w = x + 2 * g
    near(w, x + 2 * gr, 1e-4)
    near(g, gr, 1e-4)
    near(h, gr, 1e-4)
    g = ones(m, n) * 1e30
    h = g
    parallel_do(size(x), x, g, tv_grad)
    w = h - g * 3
    near(w, -2 * gr, 1e-4)
    near(g, gr, 1e-4)

    % into a slice written in place, and into x -= e
    c3 = ones(m, n, 2) * 5
    g = zeros(m, n)
    parallel_do(size(x), x, g, tv_grad)
    c3[:, :, 1] = g * 2
    near(c3[:, :, 1], 2 * gr, 1e-4)
    near(c3[:, :, 0], ones(m, n) * 5, 0)
    y = x + 1
    g = zeros(m, n)
    parallel_do(size(x), x, g, tv_grad)
    y -= 0.5 * g
    near(y, x + 1 - 0.5 * gr, 1e-4)

    % `t5 = e` fuses into the next statement only if t5 is dead: a later launch writing t5
    % does not kill it (the launch needs t5's array)
    t5 = x .* 2
    w = t5 + 1
    parallel_do(size(x), x, t5, tv_grad)
    near(w, x .* 2 + 1, 1e-6)

    % the launch covers part of g: the rest keeps its values
    g = ones(m, n) * 7
    part = [m, n - 3]
    parallel_do(part, x, g, tv_grad)
    w = x - g
    for i = 0..m - 1
        for j = 0..n - 1
            want = j < n - 3 ? x[i, j] - gr[i, j] : x[i, j] - 7   % (x is clamped at its own edge)
            assert(abs(w[i, j] - want) <= 1e-4 * (1 + abs(want)))
        endfor
    endfor

    % a kernel that reads g, and one that writes two arrays: not fused, right answers
    g = ones(m, n) * 0.5
    parallel_do(size(x), x, g, grad_acc)
    w = x .* g
    ref = zeros(m, n)
    for i = 0..m - 1
        for j = 0..n - 1
            ref[i, j] = x[i, j] * (0.5 + x[i, min(j + 1, n - 1)] - x[i, j])
        endfor
    endfor
    near(w, ref, 1e-5)
    g = zeros(m, n)
    h2 = zeros(m, n)
    parallel_do(size(x), x, g, h2, grad_two)
    w = g + 1
    for i = 0..m - 1
        for j = 0..n - 1
            assert(abs(w[i, j] - (x[i, min(j + 1, n - 1)] - x[i, j] + 1)) <= 1e-5)
            assert(h2[i, j] == 2 * x[i, j])
        endfor
    endfor

    g = zeros(m, n)
    parallel_do(size(x), x, g, cosvar)
    w = cos(g)
    near(w, cos(x * 2 + 1), 1e-5)

    % rank 3 (pos : ivec3), a loop and an if in the kernel
    c = rand(6, 12, 20)
    gc = zeros(6, 12, 20)
    parallel_do(size(c), c, gc, 0.25, smooth3)
    wc = c .* 2 - gc
    for i = 0..5
        for j = 0..11
            for k = 0..19
                s = c[i, max(j - 1, 0), k] + c[i, j, k] + c[i, min(j + 1, 11), k]
                if k > 0
                    s = s + 0.25 * c[i, j, k - 1]
                endif
                want = 2 * c[i, j, k] - s
                assert(abs(wc[i, j, k] - want) <= 1e-5 * (1 + abs(want)))
            endfor
        endfor
    endfor

    % a vector: pos : int over numel
    v = rand(3000)
    gv = zeros(3000)
    parallel_do(numel(v), v, gv, diff1)
    wv = v + gv
    for k = 0..2999
        assert(abs(wv[k] - v[min(k + 1, 2999)]) <= 1e-6)
    endfor

    % an int g: not fused (the launch stores ints), exact
    xi = rand(m, n) * 8
    gi = int(zeros(m, n))
    parallel_do(size(xi), xi, gi, grad_int)
    wi = gi * 2
    for i = 0..m - 1
        for j = 0..n - 1
            assert(wi[i, j] == 2 * int(3.75 * (xi[i, min(j + 1, n - 1)] - xi[i, j]) + 0.5))
        endfor
    endfor
    print "ok"
endfunction
