% 1024x1024 matrix product with kernel3 of seed 003 10.9 (one thread per element).
function [] = __kernel__ kernel3(A : mat'unchecked, B : mat'unchecked, C : mat'unchecked, pos : ivec2)
    sum = 0.0
    for m=0..size(A,1)-1
        sum += A[pos[0],m]*B[m,pos[1]]
    endfor
    C[pos] = sum
endfunction
function [] = __kernel__ fill(a : mat, b : mat, pos : ivec2)
    a[pos] = mod(pos[0] + 2 * pos[1], 7) - 3
    b[pos] = mod(3 * pos[0] + pos[1], 5) - 2
endfunction
n = 1024
A = zeros(n, n)
B = zeros(n, n)
parallel_do(size(A), A, B, fill)
C = zeros(n, n)
for r = 1..3
    tic()
    parallel_do(size(C), A, B, C, kernel3)
    toc("matmul 1024")
endfor
print "checksum ", C[512, 3]
