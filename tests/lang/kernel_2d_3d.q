% 2-D and 3-D kernels: pos is an ivec2/ivec3 in row-major order (the last index is fastest).

function [] = __kernel__ fill2(y : mat, pos : ivec2)
    y[pos] = 1000 * pos[0] + pos[1]
endfunction

function [] = __kernel__ fill3(y : cube, pos : ivec3)
    y[pos[0], pos[1], pos[2]] = 10000 * pos[0] + 100 * pos[1] + pos[2]
endfunction

% position parameters without a type: inferred from the launch
function [] = __kernel__ add2(a, b, c, pos)
    c[pos] = a[pos] + b[pos]
endfunction

% the number of times each element was visited
function [] = __kernel__ visit3(cnt : cube, pos : ivec3)
    cnt[pos] += 1
endfunction

M = 13
N = 24
y = ones(M, N) * -1
parallel_do([M, N], y, fill2)
for m = 0..M-1
    for n = 0..N-1
        assert(y[m, n] == 1000 * m + n)
    endfor
endfor

y2 = ones(M, N) * -1
parallel_do(size(y2), y2, fill2)
for m = 0..M-1
    for n = 0..N-1
        assert(y2[m, n] == y[m, n])
    endfor
endfor

D = [5, 6, 7]
c = ones(D[0], D[1], D[2]) * -1
parallel_do(D, c, fill3)
for i = 0..D[0]-1
    for j = 0..D[1]-1
        for k = 0..D[2]-1
            assert(c[i, j, k] == 10000 * i + 100 * j + k)
        endfor
    endfor
endfor

cnt = zeros(4, 9, 3)
parallel_do(size(cnt), cnt, visit3)
parallel_do(size(cnt), cnt, visit3)
for i = 0..3
    for j = 0..8
        for k = 0..2
            assert(cnt[i, j, k] == 2)
        endfor
    endfor
endfor

a = reshape(0..29, [5, 6])
b = ones(5, 6) * 100
s = ones(5, 6) * -1
parallel_do(size(s), a, b, s, add2)
for m = 0..4
    for n = 0..5
        assert(s[m, n] == 6 * m + n + 100)
    endfor
endfor

% a launch over part of an array: size(x, 0..1) of a cube
img = zeros(6, 4, 3)
parallel_do(size(img, 0..1), img, __kernel__ (img : cube, pos : ivec2) -> _
    img[pos[0], pos[1], 0..2] = [1, 2, 3] * (pos[0] + pos[1]))
for m = 0..5
    for n = 0..3
        for ch = 0..2
            assert(img[m, n, ch] == (ch + 1) * (m + n))
        endfor
    endfor
endfor
print "kernel_2d_3d: ok"
