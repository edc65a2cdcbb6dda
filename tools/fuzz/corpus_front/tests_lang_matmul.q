% `*` on two matrices is the matrix product; checked against the triple loop.

function C = triple_loop(A, B)
    C = zeros(size(A, 0), size(B, 1))
    for i = 0..size(A, 0)-1
        for j = 0..size(B, 1)-1
            acc = 0.0
            for k = 0..size(A, 1)-1
                acc += A[i, k] * B[k, j]
            endfor
            C[i, j] = acc
        endfor
    endfor
endfunction

A = zeros(3, 4)
B = zeros(4, 2)
for i = 0..2
    for k = 0..3
        A[i, k] = mod(3 * i + 5 * k, 7) - 3
    endfor
endfor
for k = 0..3
    for j = 0..1
        B[k, j] = mod(2 * k + 3 * j + 1, 5) - 2
    endfor
endfor

C = A * B
R = triple_loop(A, B)
assert(size(C, 0) == 3 && size(C, 1) == 2)
for i = 0..2
    for j = 0..1
        assert(C[i, j] == R[i, j])
    endfor
endfor

% the identity
I = zeros(4, 4)
for i = 0..3
    I[i, i] = 1
endfor
AI = A * I
for i = 0..2
    for k = 0..3
        assert(AI[i, k] == A[i, k])
    endfor
endfor

% a vector is a 1xN row: v * B has the elements of the row times B
v = [1, -2, 3, 0.5]
vB = v * B
assert(numel(vB) == 2)
for j = 0..1
    acc = 0.0
    for k = 0..3
        acc += v[k] * B[k, j]
    endfor
    assert(vB[j] == acc)
endfor

% a scalar factor is element-wise
A2 = A * 2
for i = 0..2
    for k = 0..3
        assert(A2[i, k] == 2 * A[i, k])
    endfor
endfor

% (A B)^T = B^T A^T
L = transpose(A * B)
Rt = transpose(B) * transpose(A)
for i = 0..1
    for j = 0..2
        assert(L[i, j] == Rt[i, j])
    endfor
endfor
print "matmul: ok"
