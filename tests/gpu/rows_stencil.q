% Only for --target cuda (tests/gpu.sh runs this folder): a flat 2-D kernel of 2^22 positions
% or more runs 4 rows per GPU thread (plan.c cuda_rows, docs/cuda.md "Rows"), here with a row
% count that 4 does not divide, a clamped 5-point stencil and a `return` for some positions.
% Reference: the same formula at sampled positions in host code, element by element.
function [] = __kernel__ k_stencil(x : mat'clamped, y : mat'unchecked, pos : ivec2)
    if mod(pos[0] + pos[1], 7) == 3
        y[pos] = -1
        return
    endif
    y[pos] = x[pos + [0, 1]] + 2 * x[pos + [1, 0]] - 3 * x[pos - [0, 1]] + x[pos - [1, 0]] / 4 + x[pos]
endfunction
function v = ref(x, i, j)
    m = size(x, 0)
    n = size(x, 1)
    if mod(i + j, 7) == 3
        v = -1
    else
        v = x[i, min(j + 1, n - 1)] + 2 * x[min(i + 1, m - 1), j] - 3 * x[i, max(j - 1, 0)] + x[max(i - 1, 0), j] / 4 + x[i, j]
    endif
endfunction
m = 2051
n = 2049
x = zeros(m, n)
for i = 0..m-1
    x[i, 0] = i
endfor
x = x + rand(m, n)
y = zeros(m, n)
parallel_do(size(y), x, y, k_stencil)
for i = [0, 1, 2, 3, 4, 5, 1023, 2046, 2047, 2048, 2049, 2050]
    for j = [0, 1, 2, 1000, 2047, 2048]
        assert(abs(y[i, j] - ref(x, i, j)) <= 1e-3 * (1 + abs(ref(x, i, j))))
    endfor
endfor
for i = 0..997..m-1
    for j = 0..13..n-1
        assert(abs(y[i, j] - ref(x, i, j)) <= 1e-3 * (1 + abs(ref(x, i, j))))
    endfor
endfor
print "rows_stencil: ok"
