% Kernel outputs: every thread starts at the identity of the compound operator, and the
% launch combines the threads' values. Sums of integers are exact in any order; max, min
% and products of small values too.

function [s : scalar] = __kernel__ ksum(x : vec, pos : int)
    s += x[pos]
endfunction

function [m : scalar] = __kernel__ kmax(x : vec, pos : int)
    m ^^= x[pos]
endfunction

function [m : scalar] = __kernel__ kmin(x : vec, pos : int)
    m __= x[pos]
endfunction

function [c : int] = __kernel__ kcount(x : vec, t : scalar, pos : int)
    if x[pos] > t
        c += 1
    endif
endfunction

function [p : scalar] = __kernel__ kprod(pos : int)
    if mod(pos, 100) == 0
        p *= 2
    endif
endfunction

function [a : scalar, b : int] = __kernel__ ktwo(x : mat, pos : ivec2)
    a += x[pos]
    b += pos[0] * pos[1]
endfunction

% an output only some threads write, in a launch with blocks
function [y : scalar] = __kernel__ kblocks(x : vec, blkpos : int, blkidx : int)
    if blkpos == 0
        y += x[blkidx]
    endif
endfunction

N = 100000
x = zeros(N)
for i = 0..N-1
    x[i] = mod(i * 37, 1001) - 500
endfor
ref_sum = 0
ref_max = -1e9
ref_min = 1e9
ref_cnt = 0
for i = 0..N-1
    ref_sum += x[i]
    ref_max = max(ref_max, x[i])
    ref_min = min(ref_min, x[i])
    if x[i] > 100
        ref_cnt += 1
    endif
endfor
assert(parallel_do(N, x, ksum) == ref_sum)
assert(parallel_do(N, x, kmax) == ref_max)
assert(parallel_do(N, x, kmin) == ref_min)
c = parallel_do(N, x, 100, kcount)
assert(c == ref_cnt)
assert(parallel_do(2000, kprod) == 2^20)

m = zeros(300, 40)
ra = 0
rb = 0
for i = 0..299
    for j = 0..39
        m[i, j] = mod(i + j, 7)
        ra += m[i, j]
        rb += i * j
    endfor
endfor
[a, b] = parallel_do(size(m), m, ktwo)
assert(a == ra)
assert(b == rb)

nb = 50
xb = zeros(nb)
for i = 0..nb-1
    xb[i] = i
endfor
y = parallel_do([[nb * 64], [64]], xb, kblocks)
assert(y == nb * (nb - 1) / 2)
% a sum of negative zeros is +0, as the oracle's output starts at +0 (compiled threads
% start an output only ever added to at -0, which their worker adds into +0)
function [y : scalar] = __kernel__ kzeros(x : vec, pos : int)
    y += x[pos]
endfunction
% an output that is also read starts at +0 in each thread: 1 / y is +inf
function [y : scalar] = __kernel__ kread(x : vec, pos : int)
    y += 1 / y > 0
endfunction
nz = 1000
xz = zeros(nz)
for i = 0..nz-1
    xz[i] = -0.0
endfor
z = parallel_do(nz, xz, kzeros)
assert(z == 0 && 1 / z > 0)
assert(parallel_do(nz, xz, kread) == nz)
print "kernel_outputs: ok"
