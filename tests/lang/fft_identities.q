% NEEDS: libfftw3f.so.3
% FFT identities: ifft2(fft2(x)) = x, Parseval, the transform of a delta and of a cosine in
% closed form, irealfft = real(ifft) (also through seed 001's reduction), linearity.

function d = maxdiff(a, b)
    d = max(abs(a - b))
end

x = rand(16, 12)
X = fft2(x)
assert(maxdiff(ifft2(X), x) < 1e-5)
assert(maxdiff(irealfft2(X), x) < 1e-5)
assert(maxdiff(irealfft1(fft1(x)), x) < 1e-5)
y = rand(6, 5, 4)
assert(maxdiff(irealfft3(fft3(y)), y) < 1e-5)

% Parseval: sum |x|^2 = sum |X|^2 / N
N = numel(x)
assert(abs(sum(x .* x) - sum(abs(X) .^ 2) / N) < 1e-3 * sum(x .* x))

% a delta at k0: X[k] = exp(-2 pi i k k0 / n)
n = 10
k0 = 3
dl = zeros(n)
dl[k0] = 1
D = fft1(dl)
for k = 0..n-1
    a = -2 * pi * k * k0 / n
    assert(abs(D[k] - complex(cos(a), sin(a))) < 1e-5)
end

% a cosine of frequency f: n/2 at f and n - f, 0 elsewhere
n = 32
f = 5
c = cos(2 * pi * f * (0..n-1) / n)
Cf = fft1(c)
for k = 0..n-1
    expect = (k == f || k == n - f) ? n / 2 : 0
    assert(abs(Cf[k] - expect) < 1e-4)
end

% 2-D delta at (1, 2) of a 4 x 8 image
im = zeros(4, 8)
im[1, 2] = 1
F = fft2(im)
for u = 0..3
    for v = 0..7
        a = -2 * pi * (u * 1 / 4 + v * 2 / 8)
        assert(abs(F[u, v] - complex(cos(a), sin(a))) < 1e-5)
    end
end

% linearity, and an int input converted
p = rand(8)
q = rand(8)
assert(maxdiff(fft1(2 * p + q), 2 * fft1(p) + fft1(q)) < 1e-5)
assert(maxdiff(fft1([1, 2, 3, 4]), fft1([1.0, 2.0, 3.0, 4.0])) < 1e-6)

% seed 001's reduction: real(ifft2(x)) becomes irealfft2(x)
reduction z -> real(ifft2(z)) -> irealfft2(z)
r = real(ifft2(X))
assert(maxdiff(r, x) < 1e-5)
print "ok"
