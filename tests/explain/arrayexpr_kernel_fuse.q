% --explain for a kernel's launch fused with the host statement after it: which launches
% fuse (the kernel's array is never written) and why the near misses do not.
function [] = __kernel__ tv_grad(x : mat'clamped, g : mat'unchecked, pos : ivec2)
    dx = x[pos + [0, 1]] - x[pos]
    g[pos] = dx / sqrt(dx*dx + 1e-2)
endfunction
function [] = __kernel__ acc(x : mat, g : mat, pos : ivec2)
    g[pos] = g[pos] + x[pos]
endfunction
function [] = __kernel__ chk(x : mat'checked, g : mat, pos : ivec2)
    g[pos] = x[pos] * 2
endfunction
function [] = __kernel__ half(x : mat'half, g : mat, pos : ivec2)
    g[pos] = x[pos] * 2
endfunction
function [] = main()
    noisy = rand(64, 64)
    g = zeros(64, 64)
    u = noisy
    for it = 1..10
        parallel_do(size(u), u, g, tv_grad)   % g dies: the next launch writes it anew
        u = u - 0.05 * ((u - noisy) - 0.2 * g)
    endfor
    d = [64, 64]
    g2 = zeros(64, 64)
    for it = 1..3
        parallel_do(d, u, g2, tv_grad)        % not size(v): no kill, g2 is written
        u = u - 0.1 * g2
    endfor
    h = zeros(64, 64)
    parallel_do(size(u), u, h, tv_grad)
    v = u + h
    print h[0]                                % read later: the kernel writes h too
    a = ones(64, 64)
    parallel_do(size(u), u, a, acc)           % the kernel reads a
    w = a * 2
    b = zeros(64, 64)
    parallel_do(size(u), u, b, chk)           % its errors would name the fused kernel
    w = w + b
    parallel_do(size(u), u, b, half)          % reads through x would differ
    w = w + b
    print v[0], w[0]
endfunction
