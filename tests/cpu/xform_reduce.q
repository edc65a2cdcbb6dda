% Kernel outputs reduced per block on the GPU (warp shuffles, one atomic per block) and per
% worker on the CPU: sums, sums of squares, max and min, in 1, 2 and 3 dimensions, with
% launch sizes that leave partial warps and partial blocks, and an empty launch (the
% outputs keep the operator's identity). References are host loops. Integer data: exact.
% Float data: every value is a multiple of 1/4 below 2^10, so every partial sum is exact
% in float and any order of additions gives the oracle's result.

function [s1 : scalar, s2 : scalar] = __kernel__ moments(x : vec, pos : int)
    s1 += x[pos]
    s2 += x[pos]^2
endfunction

function [c : int] = __kernel__ isum(x : vec[int], pos : int)
    c += x[pos]
endfunction

function [m : scalar] = __kernel__ vmax(x : mat, pos : ivec2)
    m ^^= x[pos]
endfunction

function [m : int] = __kernel__ vmin(x : cube[int], pos : ivec3)
    m __= x[pos]
endfunction

function [s : scalar] = __kernel__ early(x : vec, pos : int)
    if x[pos] < 0
        return
    endif
    s += x[pos]
endfunction

for n = [1, 31, 33, 1000, 4099]
    x = zeros(n)
    xi = vec[int](n)
    for i = 0..n-1
        x[i] = mod(i * 37, 101) / 4 - 12
        xi[i] = mod(i * 7919, 2003) - 1000
    endfor
    [a, b] = parallel_do(n, x, moments)
    ra = 0.0
    rb = 0.0
    rc = 0
    rp = 0.0
    for i = 0..n-1
        ra += x[i]
        rb += x[i]^2
        rc += xi[i]
        if x[i] >= 0
            rp += x[i]
        endif
    endfor
    assert(a == ra && b == rb)
    assert(parallel_do(n, xi, isum) == rc)
    assert(parallel_do(n, x, early) == rp)
endfor

% 2-D max and 3-D min, odd sizes
X = zeros(37, 29)
for i = 0..36
    for j = 0..28
        X[i, j] = mod(i * 13 + j * 31, 97) - 50
    endfor
endfor
X[20, 3] = 123.5
assert(parallel_do(size(X), X, vmax) == 123.5)
C = cube[int](9, 11, 3)
for i = 0..8
    for j = 0..10
        for k = 0..2
            C[i, j, k] = mod(i * 5 + j * 3 + k * 7, 19)
        endfor
    endfor
endfor
C[8, 10, 2] = -77
assert(parallel_do(size(C), C, vmin) == -77)

% empty launches: the identities
[a, b] = parallel_do(0, zeros(1), moments)
assert(a == 0 && b == 0)
assert(parallel_do([0, 5], X, vmax) == -Inf)
print "ok"
