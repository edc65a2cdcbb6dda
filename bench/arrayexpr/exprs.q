% bench/arrayexpr/exprs.q: host array expressions at 2048x2048 (issue 20's table).
% Each case runs REPS times after a warm-up; toc waits for the GPU (nothing is copied back),
% so the time is the finished work. Prints "case: T ms" per
% case: toc prints the total of REPS repetitions (bench/arrayexpr/run.sh divides).
function [] = __kernel__ tv_grad(x : mat'clamped, g : mat'unchecked, pos : ivec2)
    dx = x[pos + [0, 1]] - x[pos]
    dy = x[pos + [1, 0]] - x[pos]
    dxm = x[pos] - x[pos - [0, 1]]
    dym = x[pos] - x[pos - [1, 0]]
    g[pos] = dx / sqrt(dx*dx + dy*dy + 1e-2) - dxm / sqrt(dxm*dxm + dym*dym + 1e-2) + _
             dy / sqrt(dx*dx + dy*dy + 1e-2) - dym / sqrt(dxm*dxm + dym*dym + 1e-2)
endfunction

function [] = __kernel__ blocks(c : mat'unchecked, n : int, pos : ivec2)
    c[pos] = floor(4 * (pos[0] + pos[1]) / (2 * n)) / 4 + 0.25 * ((floor(pos[0] / 64) + floor(pos[1] / 64)) mod 2)
endfunction

function [] = main(n : int = 2048, reps : int = 20)
    x = rand(n, n)
    h = rand(n, n)
    c3 = rand(n, n, 3)
    y = x
    w = x
    s = 0.0
    y = x .* h + 0.5*cos(x)
    y = max(sqrt(x.^2 + h.^2), 1e-10)
    s = sum(x .* x)
    w = c3[:, :, 1] .* 2 + c3[:, :, 0]
    col = sum(x .* h, 0)
    row = sum(x, 1)
    for round = 1..3
        tic()
        for r = 1..reps
            y = x .* h + 0.5*cos(x)
        endfor
        toc("oq map total")
        tic()
        for r = 1..reps
            y = max(sqrt(x.^2 + h.^2), 1e-10)
        endfor
        toc("oq maxsqrt total")
        tic()
        for r = 1..reps
            s = sum(x .* x)
        endfor
        toc("oq sumsq total")
        tic()
        for r = 1..reps
            w = c3[:, :, 1] .* 2 + c3[:, :, 0]
        endfor
        toc("oq slice total")
        tic()
        for r = 1..reps
            col = sum(x .* h, 0)
        endfor
        toc("oq sumcol total")
        tic()
        for r = 1..reps
            row = sum(x, 1)
        endfor
        toc("oq sumrow total")
    endfor
    % TV denoising: 100 iterations of a gradient kernel and a host update
    clean = zeros(n, n)
    parallel_do(size(clean), clean, n, blocks)
    noisy = clean + 0.1 * (rand(n, n) - 0.5)
    g = zeros(n, n)
    for round = 1..2   % the first round compiles
        u = noisy
        tic()
        for it = 1..100
            parallel_do(size(u), u, g, tv_grad)
            u = u - 0.05 * ((u - noisy) - 0.2 * g)
        endfor
        mse = mean((u - clean).^2)
        toc("oq tv100 total")
    endfor
    print "tv psnr: ", 10 * log10(1 / mse), " dB (noisy: ", 10 * log10(1 / mean((noisy - clean).^2)), " dB)"
endfunction
