% Calls as published Quasar programs write them (QUASAR-NOTES.md, "What published programs
% rely on"), in the forms not tested elsewhere, each against a plain-loop reference:
% gaussian_filter(x, sigma), gaussian_filter(x, 3, 9), gaussian_filter(h, s, 0, "mirror");
% imfilter(x, [-1,1,0], [0,1], "mirror") along rows; repmat(x, [1,1,C]), mean(x, 2),
% mean(x); a vec kernel declared pos : ivec2
% launched with size(x) (a tone-mapping tool's getLut).
import "imfilter.q"

% Quasar's 'mirror (QUASAR-NOTES.md): i -> |i| mod 2n, then 2n-1-i where that is >= n
function r = mirror(i, n)
    r = mod(abs(i), 2 * n)
    if r >= n
        r = 2 * n - 1 - r
    endif
endfunction

function r = clampi(i, n)
    r = max(0, min(n - 1, i))
endfunction

% the separable Gaussian of n taps (n = 0: 2*ceil(3 sigma)+1), by loops; mode 0 clamped, 1 mirror
function y = gauss_ref(x, sigma, n, mode)
    if n == 0
        n = 2 * ceil(3 * sigma) + 1
    endif
    c = floor(n / 2)
    g = zeros(n)
    for k = 0..n-1
        g[k] = exp(-(k - c)^2 / (2 * sigma^2))
    end
    g = g / sum(g)
    [h, w] = size(x)
    t = zeros(h, w)
    y = zeros(h, w)
    for i = 0..h-1
        for j = 0..w-1
            s = 0.0
            for k = 0..n-1
                jj = mode == 1 ? mirror(j + k - c, w) : clampi(j + k - c, w)
                s += g[k] * x[i, jj]
            end
            t[i, j] = s
        end
    end
    for i = 0..h-1
        for j = 0..w-1
            s = 0.0
            for k = 0..n-1
                ii = mode == 1 ? mirror(i + k - c, h) : clampi(i + k - c, h)
                s += g[k] * t[ii, j]
            end
            y[i, j] = s
        end
    end
endfunction

function [] = main()
    h = 9
    w = 11
    x = zeros(h, w)
    for i = 0..h-1
        for j = 0..w-1
            x[i, j] = mod(13 * i + 7 * j + i * j, 17)
        end
    end
    tol = 1e-4
    assert(max(abs(gaussian_filter(x, 1.2) - gauss_ref(x, 1.2, 0, 0))) < tol)
    assert(max(abs(gaussian_filter(x, 3, 9) - gauss_ref(x, 3, 9, 0))) < tol)
    assert(max(abs(gaussian_filter(x, 0.8, 0, "mirror") - gauss_ref(x, 0.8, 0, 1))) < tol)

    % imfilter(x, [-1,1,0], [0,1], "mirror"): correlation along each row, centre at column 1
    d = imfilter(x, [-1, 1, 0], [0, 1], "mirror")
    for i = 0..h-1
        for j = 0..w-1
            want = -x[i, mirror(j - 1, w)] + x[i, j]
            assert(abs(d[i, j] - want) < tol)
        end
    end

    % repmat(x, [1,1,C]) stacks a matrix into C channels; mean(x, 2) averages them again
    C = 3
    xc = repmat(x, [1, 1, C])
    assert(size(xc, 0) == h && size(xc, 1) == w && size(xc, 2) == C)
    for k = 0..C-1
        xc[:, :, k] = xc[:, :, k] * (k + 1)
    end
    m = mean(xc, 2)
    assert(size(m, 0) == h && size(m, 1) == w)
    for i = 0..h-1
        for j = 0..w-1
            assert(abs(m[i, j] - x[i, j] * (1 + 2 + 3) / 3) < tol)
        end
    end
    assert(abs(mean(x) - sum(x) / numel(x)) < tol)

    % getLut: a vec, a kernel with pos : ivec2, launched with size(x)
    function [] = __kernel__ lut_kernel(x : vec'unchecked, y : vec'unchecked, a : scalar, pos : ivec2)
        input = x[pos[0], pos[1]]
        y[pos[0], pos[1]] = input^a
    end
    v = 0.0..1/255..1.0
    lut = uninit(size(v))
    parallel_do(size(v), v, lut, 2.2, lut_kernel)
    for k = 0..numel(v)-1
        assert(abs(lut[k] - v[k]^2.2) < 1e-6)
    end
    print "published_calls: ok"
end
