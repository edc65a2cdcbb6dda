% The Mandelbrot fractal with the normalized iteration count (seed 003, section 10.2):
% complex arithmetic in a kernel. No input image: the fractal is SIZE x SIZE pixels.
% Run: oq run examples/mandelbrot.q [OUTPUT [SIZE [ITERATIONS]]]
% The seed shows it with imshow(x, []) (the range of x stretched to 0..255); here the
% same stretch is written to OUTPUT.
% DIFFERS from the seed: points that never escape are set to 0 (drawn black). The seed
% evaluates its formula with the loop variable n after the loop has run to its end,
% which is not settled (docs: tests/README.md, 19), and log(log|z|) there may be NaN.

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
    im[pos] = abs(z)>N ? n-log2(log(abs(z))/log(N)) : 0
endfunction

function [] = main(output = "build/examples/mandelbrot.png", size_ = 768, its = 512)
    x = zeros(size_, size_)
    % the seed zooms with s = 10 around t = -1.42; s = 3 shows the whole set
    parallel_do(size(x),x,3,complex(-0.5),its,mandelbrot_fractal)
    % imshow(x, []): the values stretched from their minimum to their maximum
    lo = min(x)
    hi = max(x)
    y = zeros(size(x))
    parallel_do(size(x), x, y, lo, hi, __kernel__ (x : mat, y : mat, lo : scalar, hi : scalar, pos : ivec2) -> _
        y[pos] = 255 * (x[pos] - lo) / (hi - lo))
    imwrite(output, y)
    print "mandelbrot: wrote ", output, " (values ", lo, " .. ", hi, ")"
endfunction
