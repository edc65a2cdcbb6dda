% Function values passed to kernels: acc : [__device__ (scalar, scalar) -> scalar].

type binop : [__device__ (scalar, scalar) -> scalar]

function [] = __kernel__ combine(x : vec, y : vec, z : vec, op : [__device__ (scalar, scalar) -> scalar], pos : int)
    z[pos] = op(x[pos], y[pos])
endfunction

function [] = __kernel__ fold_rows(x : mat, out : vec, acc : binop, init : scalar, pos : int)
    r = init
    for j = 0..size(x, 1)-1
        r = acc(r, x[pos, j])
    endfor
    out[pos] = r
endfunction

add = __device__ (a : scalar, b : scalar) -> a + b
mul = __device__ (a : scalar, b : scalar) -> a * b
mx = __device__ (a : scalar, b : scalar) -> max(a, b)
function y = __device__ absdiff(a : scalar, b : scalar)
    y = abs(a - b)
endfunction

N = 30
x = zeros(N)
y = zeros(N)
for i = 0..N-1
    x[i] = mod(5 * i, 7) - 3
    y[i] = mod(3 * i, 4) - 1
endfor

z = ones(N) * 1e9
parallel_do(N, x, y, z, add, combine)
for i = 0..N-1
    assert(z[i] == x[i] + y[i])
endfor
z = ones(N) * 1e9
parallel_do(N, x, y, z, mul, combine)
for i = 0..N-1
    assert(z[i] == x[i] * y[i])
endfor
z = ones(N) * 1e9
parallel_do(N, x, y, z, absdiff, combine)
for i = 0..N-1
    assert(z[i] == abs(x[i] - y[i]))
endfor

m = reshape(mod((0..47) * 5, 9) - 4, [8, 6])
out = ones(8) * 1e9
parallel_do(8, m, out, mx, -100, fold_rows)
for r = 0..7
    ref = -100
    for j = 0..5
        if m[r, j] > ref
            ref = m[r, j]
        endif
    endfor
    assert(out[r] == ref)
endfor
out = ones(8) * 1e9
parallel_do(8, m, out, add, 0, fold_rows)
for r = 0..7
    ref = 0
    for j = 0..5
        ref += m[r, j]
    endfor
    assert(out[r] == ref)
endfor

% the same function values called from host code
assert(add(2, 3) == 5 && mul(2, 3) == 6 && mx(2, 3) == 3 && absdiff(2, 5) == 3)
print "function_values_kernels: ok"
