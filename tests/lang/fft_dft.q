% NEEDS: libfftw3f.so.3
% FFT against a plain DFT loop: fft1 along the last dimension (each row of a matrix),
% fft2 along the first two dimensions (the third is a batch), fft3, fftn along chosen
% dimensions, and the inverses (scaled by 1/N). Lengths are not powers of two.

% the DFT of one sequence (real and imaginary parts), sign -1 forward, +1 inverse (unscaled)
function [re, im] = dft(xr : vec, xi : vec, sgn : scalar)
    n = numel(xr)
    re = zeros(n)
    im = zeros(n)
    for k = 0..n-1
        sr = 0.0
        si = 0.0
        for j = 0..n-1
            a = sgn * 2 * pi * mod(j * k, n) / n
            sr += xr[j] * cos(a) - xi[j] * sin(a)
            si += xr[j] * sin(a) + xi[j] * cos(a)
        end
        re[k] = sr
        im[k] = si
    end
end

function d = maxdiff(a, b)
    d = max(abs(a - b))
end

% 1-D: a complex vector of 7
xr = rand(7)
xi = rand(7)
x = complex(xr, xi)
[re, im] = dft(xr, xi, -1)
X = fft1(x)
assert(maxdiff(X, complex(re, im)) < 1e-4)
[re2, im2] = dft(xr, xi, 1)
assert(maxdiff(ifft1(x), complex(re2, im2) / 7) < 1e-4)

% fft1 of a 3 x 5 matrix: every row on its own
A = rand(3, 5)
F = fft1(A)
assert(size(F, 0) == 3 && size(F, 1) == 5)
for r = 0..2
    [re, im] = dft(A[r, :], zeros(5), -1)
    assert(maxdiff(F[r, :], complex(re, im)) < 1e-4)
end

% fft2 of a 5 x 6 matrix: the DFT of every column of the DFT of every row
B = rand(5, 6)
G = fft2(B)
T = cmat(5, 6)
for r = 0..4
    [re, im] = dft(B[r, :], zeros(6), -1)
    T[r, :] = complex(re, im)
end
for c = 0..5
    [re, im] = dft(real(T[:, c]), imag(T[:, c]), -1)
    col = complex(re, im)
    for r = 0..4
        assert(abs(G[r, c] - col[r]) < 1e-3)
    end
end

% fft2 of a cube: each channel (the third dimension) is a batch
C = rand(4, 6, 3)
H = fft2(C)
for ch = 0..2
    assert(maxdiff(H[:, :, ch], fft2(C[:, :, ch])) < 1e-4)
end

% fft3 of a 3 x 4 x 2 cube equals fft1 along the last dimension of fft2
D = rand(3, 4, 2)
assert(maxdiff(fft3(D), fft1(fft2(D))) < 1e-4)
% fftn along dimensions [0, 1] is fft2; along [2] of a cube is fft1
assert(maxdiff(fftn(D, [0, 1]), fft2(D)) < 1e-5)
assert(maxdiff(fftn(D, 2), fft1(D)) < 1e-5)
% fftn along the middle dimension only: a DFT of every D[i, :, k]
M = fftn(D, [1])
for i = 0..2
    for k = 0..1
        v = zeros(4)
        for j = 0..3
            v[j] = D[i, j, k]
        end
        [re, im] = dft(v, zeros(4), -1)
        for j = 0..3
            assert(abs(M[i, j, k] - complex(re[j], im[j])) < 1e-4)
        end
    end
end
% the inverses undo the transforms
assert(maxdiff(ifftn(fftn(D, [0, 2]), [0, 2]), D) < 1e-5)
assert(maxdiff(ifft3(fft3(D)), D) < 1e-5)
print "ok"
