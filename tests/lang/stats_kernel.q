% pow and dotprod inside kernels (compiled on the CPU and CUDA back ends as a .^ b and the
% inner product of two small vectors) against the same built-ins in host code.
function [] = __kernel__ k_pow(x : vec, y : vec, pos : int)
    y[pos] = pow(x[pos], 1.5) + pow(2, pos)
endfunction
function [] = __kernel__ k_dot(p : mat, d : vec, pos : int)
    a : vec3 = p[pos, 0..2]
    b = [1.0, -2.0, 0.5]
    d[pos] = dotprod(a, b) + dotprod(pos, 2)
endfunction
function [] = __kernel__ k_dot_int(q : vec[int], pos : int)
    u : ivec3 = [pos, pos + 1, 3]
    q[pos] = dotprod(u, u)
endfunction

n = 16
x = rand(n) * 4
y = zeros(n) - 1
parallel_do(n, x, y, k_pow)
for k = 0..n-1
    want = pow(x[k], 1.5) + pow(2, k)
    assert(abs(y[k] - want) < 1e-5 * want)
endfor
p = reshape(randn(n * 3), [n, 3])
d = zeros(n) - 1
parallel_do(n, p, d, k_dot)
for k = 0..n-1
    want = p[k, 0] - 2 * p[k, 1] + 0.5 * p[k, 2] + 2 * k
    assert(abs(d[k] - want) < 1e-4 * (1 + abs(want)))
    assert(abs(d[k] - (dotprod(p[k, :], [1, -2, 0.5]) + dotprod(k, 2))) < 1e-4 * (1 + abs(want)))
endfor
q = vec[int](n)
parallel_do(n, q, k_dot_int)
for k = 0..n-1
    assert(q[k] == k * k + (k + 1) * (k + 1) + 9)
endfor
