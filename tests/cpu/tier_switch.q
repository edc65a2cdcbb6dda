% Kernels whose launches tests/run.sh makes switch from TinyCC's build to the C compiler's
% in the middle (OQ_DEV_CPU_SWITCH_AT, rt_cpu.c's PoolTier): an element-wise kernel,
% reductions (a kernel output, += into a small array: private copies, and a counted +=)
% and a complex kernel, of 256 x 256 positions (16 chunks or more), the element-wise one
% of 512 x 512 (2^18: its build is urgent, a worker parks while it runs). Every result is an
% exact value (in double precision), checked here against closed forms or the host, and
% printed, so that tests/run.sh compares the switched run with the interpreter's.

function [] = __kernel__ affine(x : mat, y : mat, pos : ivec2)
    y[pos] = 3 * x[floor(pos[0] / 2), floor(pos[1] / 2)] + pos[0] - 0.5 * pos[1]
endfunction

function [s : scalar] = __kernel__ sums(x : mat, h : vec, cnt : vec, pos : ivec2)
    b = mod(7 * pos[0] + pos[1], 16)
    h[b] += x[pos]
    cnt[b] += 1
    s += x[pos]
endfunction

function [] = __kernel__ escape(n : mat, zr : mat, pos : ivec2)
    c = complex(-2 + 2.5 * pos[1] / 256, -1.25 + 2.5 * pos[0] / 256)
    z = 0i
    k = 0
    while k < 64 && abs(z) <= 2
        z = z * z + c
        k += 1
    endwhile
    n[pos] = k
    zr[pos] = k < 64 ? 0 : round(real(z) * 4096)
endfunction

N = 256
x = zeros(N, N)
for i = 0..N-1
    for j = 0..N-1
        x[i, j] = mod(13 * i * i + 7 * j, 101)
    endfor
endfor

y = zeros(2 * N, 2 * N)
parallel_do([2 * N, 2 * N], x, y, affine)
for k = 0..199
    i = mod(37 * k, 2 * N)
    j = mod(91 * k + 5, 2 * N)
    assert(y[i, j] == 3 * x[floor(i / 2), floor(j / 2)] + i - 0.5 * j)
endfor
print "affine: ", int(2 * sum(y)), " ", y[17, 250]

h = zeros(16)
cnt = zeros(16)
s = parallel_do([N, N], x, h, cnt, sums)
total = 0
for i = 0..N-1
    for j = 0..N-1
        total += x[i, j]
    endfor
endfor
assert(s == total)
assert(sum(h) == total)
% (7 i + j) mod 16 takes every value 16 times in each row
for b = 0..15
    assert(cnt[b] == N * N / 16)
endfor
print "sums: ", int(s), " ", int(h[0]), " ", int(h[5]), " ", int(h[15])

n = zeros(N, N)
zr = zeros(N, N)
parallel_do([N, N], n, zr, escape)
% points of the cardioid's inside never escape; points past |c| > 2 escape at once
assert(n[128, 192] == 64)
assert(n[0, 0] == 1)
print "escape: ", int(sum(n)), " ", int(sum(zr)), " ", n[100, 100], " ", n[128, 100]
