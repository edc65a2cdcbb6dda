% Small fixed vectors, slices of constant length, reductions of vectors, pos2ind/ind2pos,
% complex arithmetic, match, and device functions returning vectors or several values.
% The kernels' results are compared with the same formulas evaluated by the host.

function y = __device__ swirl(c : vec3, t : scalar)
    y = [c[1] * t, c[2] - t, c[0] + c[1] * c[2]]
endfunction

function [lo, hi] = __device__ bounds(v : vec3)
    lo = min(v)
    hi = max(v)
endfunction

function [] = __kernel__ vec_kernel(img : cube, out : cube, stats : mat, pos : ivec2)
    px : vec3 = img[pos[0], pos[1], 0..2]
    q = swirl(px, 0.5)
    out[pos[0], pos[1], 0..2] = q
    [lo, hi] = bounds(px)
    i = pos2ind(size(img, 0..1), pos)
    p = ind2pos(size(img, 0..1), i)
    s = sum(px) + prod(px) - mean(px)
    stats[i, 0] = s
    stats[i, 1] = hi - lo
    stats[i, 2] = p[0] * 1000 + p[1]
    stats[i, 3] = px * [1, 2, 3]          % inner product
    stats[i, 4] = frac(s) + int(-s / 3) + mod(-i, 7) + floor(-s / 5)
    iv : ivec3 = [pos[0], pos[1], 7]
    stats[i, 5] = sum(iv * 2) + numel(iv) + size(img, 2)
    match mod(i, 3) with
    | 0 -> stats[i, 6] = 10
    | 1 -> stats[i, 6] = 20
    | _ -> stats[i, 6] = 30
    endmatch
endfunction

function [] = __kernel__ mandel(im : mat, s : scalar, t : cscalar, num_it : int, pos : ivec2)
    p = (float(pos) ./ size(im, 0..1)) - 0.5
    c = t + s * complex(p[1], p[0])
    z = 0i
    n = 0
    for n = 1..num_it
        if abs(z) > 2.0
            break
        endif
        z = z * z + c
    endfor
    im[pos] = n + real(z) - imag(z) / 2
endfunction

h = 6
w = 9
img = zeros(h, w, 3)
for i = 0..h-1
    for j = 0..w-1
        for k = 0..2
            img[i, j, k] = mod(i * 5 + j * 3 + k * 7, 11) * 0.25 - 1
        endfor
    endfor
endfor
out = zeros(h, w, 3)
stats = zeros(h * w, 7)
parallel_do([h, w], img, out, stats, vec_kernel)
for i = 0..h-1
    for j = 0..w-1
        px = [img[i, j, 0], img[i, j, 1], img[i, j, 2]]
        q = [px[1] * 0.5, px[2] - 0.5, px[0] + px[1] * px[2]]
        for k = 0..2
            assert(out[i, j, k] == q[k])
        endfor
        ii = i * w + j
        s = px[0] + px[1] + px[2] + px[0] * px[1] * px[2] - (px[0] + px[1] + px[2]) / 3
        assert(abs(stats[ii, 0] - s) < 1e-5)
        assert(stats[ii, 1] == max(px) - min(px))
        assert(stats[ii, 2] == i * 1000 + j)
        assert(abs(stats[ii, 3] - (px[0] + 2 * px[1] + 3 * px[2])) < 1e-5)
        sk = stats[ii, 0]
        assert(abs(stats[ii, 4] - (frac(sk) + int(-sk / 3) + mod(-ii, 7) + floor(-sk / 5))) < 1e-4)
        assert(stats[ii, 5] == 2 * (i + j + 7) + 3 + 3)
        assert(stats[ii, 6] == 10 * (mod(ii, 3) + 1))
    endfor
endfor

n = 24
im = zeros(n, n)
parallel_do(size(im), im, 2.5, complex(-0.5, 0.1), 40, mandel)
for i = 0..n-1
    for j = 0..n-1
        p = [i / n, j / n] - 0.5
        c = complex(-0.5, 0.1) + 2.5 * complex(p[1], p[0])
        z = 0i
        k = 0
        for k = 1..40
            if abs(z) > 2.0
                break
            endif
            z = z * z + c
        endfor
        assert(im[i, j] == k + real(z) - imag(z) / 2)
    endfor
endfor
print "vectors_complex: ok"
