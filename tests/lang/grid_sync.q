% syncthreads(grid): a barrier for every thread of the launch (seed 001). On the GPU a
% cooperative launch with a barrier in device memory; the CPU back end does not compile it
% (the interpreter runs it, every thread a fiber, so the launches stay small here).

% Seed 001's separable filter, as written: the vertical pass reads rows that other blocks
% wrote before the barrier.
function y = gaussian_filter_separable(x, fc, n)
    function [] = __kernel__ gaussian_filter_separable(x : cube, y : cube, z : cube, fc : vec, n : int, pos : vec3)
        sum = 0.
        for i=0..numel(fc)-1
            sum = sum + x[pos + [0,i-n,0]] * fc[i]
        endfor
        z[pos] = sum
        syncthreads(grid)
        sum = 0.
        for i=0..numel(fc)-1
            sum = sum + z[pos + [i-n,0,0]] * fc[i]
        endfor
        y[pos] = sum
    endfunction
    z = uninit(size(x))
    y = uninit(size(x))
    parallel_do (size(y), x, y, z, fc, n, gaussian_filter_separable)
endfunction

H = 40
W = 50
x = zeros(H, W, 3)
for i = 0..H-1
    for j = 0..W-1
        for c = 0..2
            x[i, j, c] = mod(i * 7 + j * 3 + c * 11, 17)
        endfor
    endfor
endfor
fc = [1, 2, 4, 2, 1]
n = 2
y = gaussian_filter_separable(x, fc, n)
% reference: the two passes in host loops, zero outside the image
z = zeros(H, W, 3)
for i = 0..H-1
    for j = 0..W-1
        for c = 0..2
            s = 0
            for k = 0..4
                jj = j + k - n
                if jj >= 0 && jj < W
                    s += x[i, jj, c] * fc[k]
                endif
            endfor
            z[i, j, c] = s
        endfor
    endfor
endfor
for i = 0..H-1
    for j = 0..W-1
        for c = 0..2
            s = 0
            for k = 0..4
                ii = i + k - n
                if ii >= 0 && ii < H
                    s += z[ii, j, c] * fc[k]
                endif
            endfor
            assert(y[i, j, c] == s)
        endfor
    endfor
endfor

% Many barriers in a loop: every step rotates the whole vector by one place through the
% other buffer, so each value crosses blocks; after `steps` steps it has moved that far.
function [] = __kernel__ rotate_steps(a : vec, b : vec, steps : int, pos : int)
    N = numel(a)
    for s = 0..steps-1
        if mod(s, 2) == 0
            b[mod(pos + 1, N)] = a[pos]
        else
            a[mod(pos + 1, N)] = b[pos]
        endif
        syncthreads(grid)
    endfor
endfunction

N = 3000
steps = 9
a = zeros(N)
for i = 0..N-1
    a[i] = i
endfor
b = ones(N) * -1
parallel_do(N, a, b, steps, rotate_steps)
for i = 0..N-1
    assert(b[i] == mod(i - steps + N, N))
endfor
% A grid barrier that only the first block reaches: the blocks disagree, so no back end
% compiles it (blkidx differs between blocks); the oracle runs it, and the threads of the
% other blocks, once finished, do not hold the barrier back.
function [] = __kernel__ first_block_sync(a : vec, pos : int, blkidx : int)
    if blkidx == 0
        a[pos] = 1
        syncthreads(grid)
        a[pos] += 1
    endif
endfunction

a = ones(64) * -1
parallel_do([[64], [32]], a, first_block_sync)
for i = 0..63
    assert(a[i] == (i < 32 ? 2 : -1))
endfor
print "grid_sync: ok"
