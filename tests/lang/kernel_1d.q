% 1-D kernels via parallel_do; outputs are poisoned first so that a kernel that writes
% nothing fails. The default block of N threads is the largest divisor of N <= 512.

function [] = __kernel__ affine(x : vec, y : vec, a : scalar, b : scalar, pos : int)
    y[pos] = a * x[pos] + b
endfunction

function [] = __kernel__ geometry(bd : vec, bc : vec, bi : vec, bp : vec, pos : int, _
        blkdim : int, blkcnt : int, blkidx : int, blkpos : int)
    bd[pos] = blkdim
    bc[pos] = blkcnt
    bi[pos] = blkidx
    bp[pos] = blkpos
endfunction

% the largest divisor of n that is <= 512
function b = default_block(n)
    b = 1
    for d = 1..min(n, 512)
        if mod(n, d) == 0
            b = d
        endif
    endfor
endfunction

for N = [1, 7, 100, 512, 1000, 1031, 1536]
    x = zeros(N)
    for i = 0..N-1
        x[i] = mod(7 * i, 13) - 6
    endfor
    y = ones(N) * 1e9
    parallel_do(N, x, y, 2.5, -1, affine)
    for i = 0..N-1
        assert(y[i] == 2.5 * x[i] - 1)
    endfor

    bd = ones(N) * -1
    bc = ones(N) * -1
    bi = ones(N) * -1
    bp = ones(N) * -1
    parallel_do(N, bd, bc, bi, bp, geometry)
    B = default_block(N)
    for i = 0..N-1
        assert(bd[i] == B)
        assert(bc[i] == N / B)
        assert(bi[i] == int(i / B))
        assert(bp[i] == mod(i, B))
        assert(bi[i] * bd[i] + bp[i] == i)
    endfor
endfor

% the number of threads may be given as a scalar with an integral value, or as size(x)
N = 64
x = ones(N)
y = zeros(N) - 1
parallel_do(size(y), x, y, 3, 0, affine)
assert(sum(y) == 3 * N)
y = zeros(N) - 1
parallel_do(numel(y) / 2 * 2, x, y, 1, 1, affine)
assert(sum(y) == 2 * N)
print "kernel_1d: ok"
