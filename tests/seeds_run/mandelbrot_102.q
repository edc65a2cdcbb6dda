% Seed 003, 10.2 Fractals: the Mandelbrot kernel (normalized iteration count), against a
% host reimplementation of the same formula, at sample pixels with a closed form and over
% the whole image.
% REPAIR: typographic apostrophes (U+2019, PDF damage) are straight quotes: mat'unchecked.
% The seed launches it on a 768x768 image with 512 iterations; the driver below uses a
% 24x32 image and 64 iterations to stay small (the kernel is unchanged).

% Mandelbrot fractal with Normalized Iteration Count algorithm
function [] = __kernel__ mandelbrot_fractal(im : mat'unchecked, s : scalar, _
t : cscalar, num_it : int, pos : ivec2)
p = (float(pos) ./ size(im,0..1))-0.5
c = t+s*complex(p[1],p[0])
z = 0i
N = 2.0
for n=1..num_it
if abs(z)>N
break
endif
z = z*z + c
endfor
im[pos] = n-log2(log(abs(z))/log(N))
endfunction

% ---- test driver ----
H = 24
W = 32
its = 64
x = ones(H, W) * -1e9
parallel_do(size(x),x,10,complex(-1.42),its,mandelbrot_fractal)

% The host version of the same iteration. It returns the iteration at which |z| > 2 was
% seen (0 if never) and z at that moment.
function [esc, zz] = escape(c, its)
    zz = 0i
    esc = 0
    k = 1
    while k <= its
        if abs(zz) > 2
            esc = k
            break
        endif
        zz = zz * zz + c
        k += 1
    endwhile
endfunction

% Pixel [0, 0]: p = [-0.5, -0.5], c = -1.42 + 10*(-0.5 - 0.5i) = -6.42 - 5i. z1 = c already
% has |z| > 2, so the loop breaks at n = 2 and the value is 2 - log2(log|c| / log 2).
c00 = complex(-6.42, -5)
want = 2 - log2(log(abs(c00)) / log(2))
assert(abs(x[0, 0] - want) < 1e-3)
% Pixel [H-1, W-1]: c = -1.42 + 10*complex((W-1)/W - 0.5, (H-1)/H - 0.5): far out too
cl = complex(-1.42 + 10 * ((W - 1) / W - 0.5), 10 * ((H - 1) / H - 0.5))
assert(abs(cl) > 2)
want = 2 - log2(log(abs(cl)) / log(2))
assert(abs(x[H - 1, W - 1] - want) < 1e-3)

% every pixel that escapes, against the host iteration
escaped = 0
for m = 0..H-1
    for n = 0..W-1
        p = [m / H, n / W] - 0.5
        c = complex(-1.42) + 10 * complex(p[1], p[0])
        [esc, zz] = escape(c, its)
        if esc > 0
            escaped += 1
            want = esc - log2(log(abs(zz)) / log(2))
            assert(abs(x[m, n] - want) <= 1e-3 * (1 + abs(want)))
        endif
    endfor
endfor
assert(escaped > H * W / 2)
print "mandelbrot_102: ok"
