% __device__ functions called from kernels, from other device functions and from host code.

function y = __device__ sq(x : scalar)
    y = x * x
endfunction

function y : scalar = __device__ hyp(a : scalar, b : scalar)
    y = sqrt(sq(a) + sq(b))
endfunction

function [q : vec3] = __device__ lerp3(a : vec3, b : vec3, t : scalar)
    q = a * (1 - t) + b * t
endfunction

function y = __device__ clampf(x : scalar, lo : scalar, hi : scalar)
    y = x < lo ? lo : (x > hi ? hi : x)
endfunction

function [] = __kernel__ use_device(x : vec, y : vec, z : mat, pos : int)
    y[pos] = hyp(x[pos], 2 * x[pos]) + clampf(x[pos], -1, 1)
    z[pos, 0..2] = lerp3([0.0, 0.0, 0.0], [x[pos], 1.0, -x[pos]], 0.5)
endfunction

% host calls
assert(sq(3) == 9)
assert(hyp(3, 4) == 5)
assert(clampf(5, 0, 2) == 2 && clampf(-5, 0, 2) == 0 && clampf(1.5, 0, 2) == 1.5)
l = lerp3([0.0, 2.0, 4.0], [2.0, 2.0, 0.0], 0.25)
assert(l[0] == 0.5 && l[1] == 2 && l[2] == 3)

N = 40
x = zeros(N)
for i = 0..N-1
    x[i] = (i - 20) / 8
endfor
y = ones(N) * 1e9
z = ones(N, 3) * 1e9
parallel_do(N, x, y, z, use_device)
for i = 0..N-1
    t = x[i]
    c = t < -1 ? -1 : (t > 1 ? 1 : t)
    assert(abs(y[i] - (sqrt(5) * abs(t) + c)) < 1e-4)
    assert(z[i, 0] == t / 2 && z[i, 1] == 0.5 && z[i, 2] == -t / 2)
endfor
print "device_functions: ok"
