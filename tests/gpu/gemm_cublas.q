% tests/gpu.sh: the matrix product of large matrices on the GPU (cuBLAS GEMM: on --target
% cuda, operands on the device or of 16384 elements or more) against a kernel's plain loop.

function [] = __kernel__ loop_product(a : mat, b : mat, c : mat, k : int, pos : ivec2)
    s = 0.0
    for t = 0..k-1
        s += a[pos[0], t] * b[t, pos[1]]
    end
    c[pos] = s
end

function [] = __kernel__ fill(x : mat, seed : scalar, pos : ivec2)
    x[pos] = sin(pos[0] * 0.31 + pos[1] * seed) + 0.5
end

function d = maxdiff(a, b)
    d = max(abs(a - b))
end

a = mat(160, 96)
b = mat(96, 200)
parallel_do(size(a), a, 0.17, fill)
parallel_do(size(b), b, 0.05, fill)
ref = mat(160, 200)
parallel_do(size(ref), a, b, ref, 96, loop_product)
c = a * b
assert(size(c, 0) == 160 && size(c, 1) == 200)
assert(maxdiff(c, ref) < 1e-3 * max(abs(ref)))

% host-made operands of 16384 elements or more go to the GPU too; complex: (A + iA)(B - iB) = 2AB
A = rand(128, 128)
B = rand(128, 130)
R = mat(128, 130)
parallel_do(size(R), A, B, R, 128, loop_product)
assert(maxdiff(A * B, R) < 1e-3 * max(abs(R)))
Z = complex(A, A) * complex(B, -B)
assert(maxdiff(real(Z), 2 * R) < 2e-3 * max(abs(R)) && max(abs(imag(Z))) < 1e-3 * max(abs(R)))
print "ok"
