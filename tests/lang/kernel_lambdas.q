% Kernel lambdas: __kernel__ (pos) -> ... with the arrays captured from the enclosing scope
% (seed 001), with explicit parameters, and with several statements.

x = (0..99) * 0.5
y = ones(size(x)) * -1
parallel_do(size(y), __kernel__ (pos) -> y[pos] = 2 * x[pos])
for i = 0..99
    assert(y[i] == i)
endfor

% explicit parameters, one line continued with `_`
z = ones(size(x)) * -1
parallel_do(size(z), x, z, __kernel__ (x : vec, z : vec, pos : int) -> _
    z[pos] = x[pos] + 1)
for i = 0..99
    assert(z[i] == i * 0.5 + 1)
endfor

% several statements: (s1; s2; ...)
w = ones(10, 10) * -1
parallel_do(size(w), __kernel__ (pos : ivec2) -> (a = pos[0] * 10; b = pos[1]; w[pos] = a + b))
for i = 0..9
    for j = 0..9
        assert(w[i, j] == 10 * i + j)
    endfor
endfor

% a kernel lambda stored in a variable, then launched twice with different captured state
acc = zeros(5)
bump = __kernel__ (pos) -> acc[pos] += pos + 1
parallel_do(5, bump)
parallel_do(5, bump)
for i = 0..4
    assert(acc[i] == 2 * (i + 1))
endfor

% inside a function, capturing its parameters and locals
function y = scaled_copy(x, s)
    y = uninit(size(x))
    offset = 0.25
    parallel_do(size(y), __kernel__ (pos) -> y[pos] = s * x[pos] + offset)
endfunction
c = scaled_copy([1, 2, 3], 4)
assert(c[0] == 4.25 && c[1] == 8.25 && c[2] == 12.25)

% a capturing __device__ lambda used by a kernel lambda
gain = 3
f = __device__ (v : scalar) -> gain * v
u = ones(8) * -1
parallel_do(8, __kernel__ (pos) -> u[pos] = f(pos))
for i = 0..7
    assert(u[i] == 3 * i)
endfor
print "kernel_lambdas: ok"
