% 'hwconst arrays (constant memory on the GPU) and 'hwtex_const arrays (loads through the
% non-coherent cache, __ldg) read like any other array; seed 001's kernel_hwconst. Arrays
% of more than 64 KiB stay in global memory, and an array the kernel writes ignores the
% modifier. The reference is a host loop.

function [] = __kernel__ kernel_hwconst(x : vec, y : vec, f : vec'hwconst, pos : int)
    sum = 0.0
    for i=0..numel(f)-1
        sum += x[pos+i] * f[i]
    endfor
    y[pos] = sum
endfunction

function [] = __kernel__ kernel_ldg(x : vec'hwtex_const, g : mat'hwtex_const'clamped, y : vec, pos : int)
    y[pos] = x[pos] * 2 + g[pos, pos + 1] + g[-1, pos]
endfunction

% two 'hwconst arrays side by side, one of ints, and one written (so not in constant memory)
function [] = __kernel__ kernel_two(a : vec'hwconst, b : vec[int]'hwconst, w : vec'hwconst, y : vec, pos : int)
    y[pos] = a[mod(pos, numel(a))] + b[numel(b) - 1 - mod(pos, numel(b))]
    w[pos] = pos
endfunction

function ref = conv_ref(x, f, N)
    ref = zeros(N)
    for p = 0..N-1
        s = 0
        for i = 0..numel(f)-1
            if p + i < numel(x)
                s += x[p + i] * f[i]
            endif
        endfor
        ref[p] = s
    endfor
endfunction

N = 500
x = zeros(N)
for i = 0..N-1
    x[i] = mod(i * 13, 29)
endfor
for taps = [7, 20000]      % 20000 floats: more than 64 KiB of constant memory
    f = zeros(taps)
    for i = 0..taps-1
        f[i] = mod(i, 5) - 2
    endfor
    y = ones(N) * -1
    parallel_do(N, x, y, f, kernel_hwconst)
    ref = conv_ref(x, f, N)
    for p = 0..N-1
        assert(y[p] == ref[p])
    endfor
    % the same array again after the host changed it: the new values reach the kernel
    f[0] = 100
    parallel_do(N, x, y, f, kernel_hwconst)
    ref = conv_ref(x, f, N)
    for p = 0..N-1
        assert(y[p] == ref[p])
    endfor
endfor

M = 40
g = zeros(M, M)
for i = 0..M-1
    for j = 0..M-1
        g[i, j] = i * 100 + j
    endfor
endfor
xs = zeros(M)
for i = 0..M-1
    xs[i] = i + 0.5
endfor
y = ones(M) * -1
parallel_do(M, xs, g, y, kernel_ldg)
for p = 0..M-1
    assert(y[p] == xs[p] * 2 + g[p, min(p + 1, M - 1)] + g[0, p])
endfor

a = [1.5, 2.5, 3.5]
b = vec[int](5)
for i = 0..4
    b[i] = 10 * i
endfor
w = ones(M) * -1
y = ones(M) * -1
parallel_do(M, a, b, w, y, kernel_two)
for p = 0..M-1
    assert(y[p] == a[mod(p, 3)] + b[4 - mod(p, 5)])
    assert(w[p] == p)
endfor
% a kernel with a barrier: the barrier statement reads no parameter, so x still goes
% through __ldg on the GPU (tests/run.sh checks the CUDA source)
function [] = __kernel__ kernel_ldg_sync(x : vec'hwtex_const, y : vec, blkpos : int, blkdim : int, blkidx : int)
    s = shared(blkdim)
    s[blkpos] = x[blkidx * blkdim + blkpos]
    syncthreads
    y[blkidx * blkdim + blkpos] = s[blkdim - 1 - blkpos]
endfunction
xs = 0..63
y = ones(64) * -1
parallel_do([[64], [16]], xs, y, kernel_ldg_sync)
for p = 0..63
    assert(y[p] == 16 * floor(p / 16) + 15 - mod(p, 16))
endfor
print "hwconst_ldg: ok"
