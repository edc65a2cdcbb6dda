% Without a boundary modifier, a kernel that reads outside an array gets 0 and a write
% outside is dropped (in host code both are errors: see tests/errors). 'safe writes are
% dropped too.

function [] = __kernel__ shifted(x : vec, y : vec, d : int, pos : int)
    y[pos] = x[pos + d]
endfunction

function [] = __kernel__ scatter(y : vec, d : int, pos : int)
    y[pos + d] = pos + 1
endfunction

function [] = __kernel__ scatter_safe(y : vec'safe, d : int, pos : int)
    y[pos + d] = pos + 1
endfunction

function [] = __kernel__ stencil2(x : mat, y : mat, pos : ivec2)
    y[pos] = x[pos + [-1, 0]] + x[pos + [1, 0]] + x[pos + [0, -1]] + x[pos + [0, 1]]
endfunction

N = 10
x = (0..N-1) + 1
for d = [-12, -3, 0, 4, 11]
    y = ones(N) * -1
    parallel_do(N, x, y, d, shifted)
    for i = 0..N-1
        j = i + d
        assert(y[i] == ((j >= 0 && j < N) ? x[j] : 0))
    endfor

    z = ones(N) * -1
    parallel_do(N, z, d, scatter)
    w = ones(N) * -1
    parallel_do(N, w, d, scatter_safe)
    for i = 0..N-1
        src = i - d                    % the thread that writes element i, if any
        want = (src >= 0 && src < N) ? src + 1 : -1
        assert(z[i] == want && w[i] == want)
    endfor
endfor

R = 4
C = 5
m = reshape((0..R*C-1) + 1, [R, C])
s = ones(R, C) * -1
parallel_do(size(s), m, s, stencil2)
for a = 0..R-1
    for b = 0..C-1
        want = 0
        if a > 0
            want += m[a - 1, b]
        endif
        if a < R - 1
            want += m[a + 1, b]
        endif
        if b > 0
            want += m[a, b - 1]
        endif
        if b < C - 1
            want += m[a, b + 1]
        endif
        assert(s[a, b] == want)
    endfor
endfor
print "kernel_default_bounds: ok"
