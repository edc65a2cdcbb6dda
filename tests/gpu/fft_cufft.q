% tests/gpu.sh: the FFTs on the GPU (cuFFT: on --target cuda, operands of 16384 elements or
% more, or already on the device, go to cuFFT) against DFTs computed by kernels and against
% identities. Every operand here is on the device (made by a kernel) or large.

% the DFT along dimension 1 of a matrix, one output element per thread
function [] = __kernel__ dft_rows(x : cmat, y : cmat, n : int, sgn : scalar, pos : ivec2)
    s : cscalar = 0
    for j = 0..n-1
        a = sgn * 2 * pi * mod(pos[1] * j, n) / n
        s += x[pos[0], j] * complex(cos(a), sin(a))
    end
    y[pos] = s
end

% the DFT along the middle dimension of a cube
function [] = __kernel__ dft_mid(x : ccube, y : ccube, n : int, pos : ivec3)
    s : cscalar = 0
    for j = 0..n-1
        a = -2 * pi * mod(pos[1] * j, n) / n
        s += x[pos[0], j, pos[2]] * complex(cos(a), sin(a))
    end
    y[pos] = s
end

function [] = __kernel__ fill(x : cmat, pos : ivec2)
    x[pos] = complex(sin(pos[0] * 0.37 + pos[1] * 0.11), cos(pos[0] * pos[1] * 0.013))
end

function d = maxdiff(a, b)
    d = max(abs(a - b))
end

% fft1 of a 64 x 256 matrix made on the GPU, against the kernel DFT of each row
x = cmat(64, 256)
parallel_do(size(x), x, fill)
ref = cmat(64, 256)
parallel_do(size(x), x, ref, 256, -1.0, dft_rows)
X = fft1(x)
assert(maxdiff(X, ref) < 2e-3)
parallel_do(size(x), X, ref, 256, 1.0, dft_rows)
assert(maxdiff(ifft1(X), ref / 256) < 1e-4)
assert(maxdiff(ifft1(X), x) < 1e-4)

% fft2 / ifft2 / irealfft2 of a 128 x 128 x 2 cube: identities and Parseval
c = rand(128, 128, 2)
C = fft2(c)
assert(maxdiff(ifft2(C), c) < 1e-4)
assert(maxdiff(irealfft2(C), c) < 1e-4)
assert(abs(sum(c .* c) - sum(abs(C) .^ 2) / (128 * 128)) < 1e-3 * sum(c .* c))
% each channel is a batch: the same as fft2 of the channel alone (a 128 x 128 matrix)
assert(maxdiff(C[:, :, 1], fft2(c[:, :, 1])) < 1e-3)

% fftn along the middle dimension of a 16 x 64 x 32 cube against the kernel DFT
z = complex(rand(16, 64, 32), rand(16, 64, 32))
zr = ccube(16, 64, 32)
parallel_do(size(z), z, zr, 64, dft_mid)
assert(maxdiff(fftn(z, 1), zr) < 2e-3)
% fft3 = fftn along every dimension = fft1 of fft2 of the cube; and back
assert(maxdiff(fft3(z), fft1(fft2(z))) < 2e-2)
assert(maxdiff(ifft3(fft3(z)), z) < 1e-4)
assert(maxdiff(irealfft3(fft3(real(z))), real(z)) < 1e-4)

% a delta and a cosine in closed form (a 1 x 32768 vec: one batch)
n = 32768
dl = zeros(n)
dl[3] = 1
D = fft1(dl)
k = 0..n-1
assert(maxdiff(real(D), cos(-2 * pi * 3 * k / n)) < 1e-3)
cs = cos(2 * pi * 5 * k / n)
F = fft1(cs)
assert(abs(F[5] - n / 2) < 0.5 && abs(F[n - 5] - n / 2) < 0.5 && abs(F[6]) < 0.5)
print "ok"
