% !kernel_tiling (seed 001, "Kernel tiling"): global mode (a thread grid of dims sweeping the
% data tile by tile, or dims=auto), local mode (each thread runs a box of positions) and
% both, for gpu, cpu or both targets. Only the order of the positions may change: every
% result is checked against a plain host loop, on sizes that are no multiples of dims,
% outputs poisoned first.

function [] = __kernel__ g1(x : vec, y : vec, pos : int)
    !kernel_tiling dims=[64]; mode="global"
    y[pos] = 2 * x[pos] + 1
endfunction

function [] = __kernel__ g2(x : mat, y : mat, pos : ivec2)
    !kernel_tiling dims=[4,8,1]; mode="global"; target="gpu"
    !kernel_tiling dims=[3,5,1]; mode="global"; target="cpu"
    y[pos] = x[pos] * 3 - pos[0] + pos[1]
endfunction

function [] = __kernel__ g3(x : cube, y : cube, pos : ivec3)
    {!kernel_tiling dims=[2,16,1]; mode="global"}
    [m, n, k] = pos
    y[m, n, k] = x[m, n, k] + 10 * k
endfunction

function [] = __kernel__ l2(x : mat, y : mat, pos : ivec2)
    !kernel_tiling dims=[1,4]; mode="local"; target="gpu"
    !kernel_tiling dims=[2,3]; mode="local"; target="cpu"
    y[pos] = x[pos] - 1
endfunction

function [] = __kernel__ l3(x : cube, y : cube, pos : ivec3)
    !kernel_tiling dims=[1,1,4]; mode="local"
    y[pos] = x[pos] * x[pos]
endfunction

function [] = __kernel__ hybrid(x : mat, y : mat, pos : ivec2)
    !kernel_tiling dims=[8,8,1]; mode="global"
    !kernel_tiling dims=[1,3,1]; mode="local"
    if x[pos] > 0.5
        y[pos] = 1
        return
    endif
    y[pos] = 0
endfunction

function [] = __kernel__ hybrid_auto(x : mat, y : mat, pos : ivec2)
    !kernel_tiling dims=auto; mode="global"; target="gpu"
    !kernel_tiling dims=[2,2]; mode="local"; target="gpu"
    y[pos] = x[pos] + 0.25
endfunction

% a grid one deep in the last of 3 dimensions, the arrays read as x[pos] only: on CUDA a
% thread's tiles along dimension 2 are a column of consecutive elements (sweep_columns for
% n2 = 2..4; tests/gpu/sweep_columns.q runs it on launches where each copy of the grid runs
% several columns), with a `return` in the body
function [] = __kernel__ cols(x : cube, z : cube, y : cube, pos : ivec3)
    !kernel_tiling dims=[4,8,1]; mode="global"
    if x[pos] > 80
        y[pos] = -2
        return
    endif
    y[pos] = x[pos] * 3 + z[pos]
endfunction

% += into a small array (privatized) and a kernel output, through a tiled sweep
function s = __kernel__ counts(im : cube, h : vec'unchecked, pos : ivec3)
    !kernel_tiling dims=[16,32,1]; mode="global"
    h[im[pos]] += 1
    s += im[pos]
endfunction

function s = __kernel__ counts_local(im : cube, h : vec'unchecked, pos : ivec3)
    !kernel_tiling dims=[1,2,3]; mode="local"
    h[im[pos]] += 1
    s += im[pos]
endfunction

% a kernel with block parameters: the attribute is ignored (--verbose says so)
function [] = __kernel__ blocked(y : mat, pos : ivec2, blkpos : ivec2, blkdim : ivec2)
    !kernel_tiling dims=[4,4,1]; mode="global"
    y[pos] = blkpos[0] * blkdim[1] + blkpos[1]
endfunction

function [] = check(a, b, what)
    assert(size(a, 0) == size(b, 0) && numel(a) == numel(b))
    assert(sum(abs(a - b)) == 0, what)
endfunction

x1 = rand(1000)
y1 = -ones(1000)
parallel_do(numel(x1), x1, y1, g1)
r1 = zeros(1000)
for i = 0..999
    r1[i] = 2 * x1[i] + 1
endfor
check(y1, r1, "g1")

x2 = floor(rand(37, 29) * 100)
y2 = -ones(37, 29)
parallel_do(size(x2), x2, y2, g2)
r2 = zeros(37, 29)
for m = 0..36
    for n = 0..28
        r2[m, n] = x2[m, n] * 3 - m + n
    endfor
endfor
check(y2, r2, "g2")

x3 = floor(rand(13, 45, 3) * 100)
y3 = -ones(13, 45, 3)
parallel_do(size(x3), x3, y3, g3)
r3 = zeros(13, 45, 3)
for m = 0..12
    for n = 0..44
        for k = 0..2
            r3[m, n, k] = x3[m, n, k] + 10 * k
        endfor
    endfor
endfor
check(y3, r3, "g3")

y2 = -ones(37, 29)
parallel_do(size(x2), x2, y2, l2)
check(y2, x2 - 1, "l2")

x4 = floor(rand(5, 7, 11) * 20)
y4 = -ones(5, 7, 11)
parallel_do(size(x4), x4, y4, l3)
check(y4, x4 .* x4, "l3")

x5 = rand(41, 23)
y5 = -ones(41, 23)
parallel_do(size(x5), x5, y5, hybrid)
check(y5, x5 > 0.5, "hybrid")

y5 = -ones(41, 23)
parallel_do(size(x5), x5, y5, hybrid_auto)
check(y5, x5 + 0.25, "hybrid_auto")

im = floor(rand(33, 70, 3) * 256)
ref = zeros(256)
total = 0
for m = 0..32
    for n = 0..69
        for k = 0..2
            ref[im[m, n, k]] += 1
            total += im[m, n, k]
        endfor
    endfor
endfor
h = zeros(256)
s = parallel_do(size(im), im, h, counts)
check(h, ref, "counts")
assert(s == total)
h = zeros(256)
s = parallel_do(size(im), im, h, counts_local)
check(h, ref, "counts_local")
assert(s == total)

% seed 000's hist_auto: a parallel loop with the attributes in its body
function y = hist_auto(im)
    y : vec'unchecked = zeros(256)
    !parallel for
    for m=0..size(im,0)-1
        for n=0..size(im,1)-1
            for k=0..size(im,2)-1
                !kernel_transform enable="sharedmemcaching"
                !kernel_arg name=y; type="inout"; access="shared"; op="+="; cache_slices=y[:]; numel=256
                !kernel_tiling dims=[128,256,1]; mode="global"; target="gpu"
                !kernel_tiling dims=[1,1,3]; mode="local"; target="cpu"
                v = im[m,n,k]
                y[v] += 1
            endfor
        endfor
    endfor
endfunction
check(hist_auto(im), ref, "hist_auto")

for n2 = [1, 2, 3, 5]
    x7 = floor(rand(13, 45, n2) * 100)
    z7 = floor(rand(13, 45, n2) * 10)
    y7 = -ones(13, 45, n2)
    parallel_do(size(x7), x7, z7, y7, cols)
    r7 = zeros(13, 45, n2)
    for m = 0..12
        for n = 0..44
            for k = 0..n2-1
                r7[m, n, k] = x7[m, n, k] > 80 ? -2 : x7[m, n, k] * 3 + z7[m, n, k]
            endfor
        endfor
    endfor
    check(y7, r7, sprintf("cols n2=%d", n2))
endfor

y6 = -ones(10, 12)
parallel_do([10, 12], y6, blocked)
for m = 0..9
    for n = 0..11
        assert(y6[m, n] >= 0)
    endfor
endfor
print "kernel_tiling: ok"
