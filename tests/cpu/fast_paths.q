% The compiled back end takes faster paths when a launch allows them; each must give what
% the general path gives. Checked against host loops, with launches that take the fast
% path and launches that must not.

% x[pos] only: a linear loop when x and y have the launch's shape
function [] = __kernel__ copy2(x : mat, y : mat, pos : ivec2)
    y[pos] = x[pos] * 2 + 1
endfunction

% x[pos + c]: rows tested once, the interior unchecked
function [] = __kernel__ blur(x : cube, y : cube, pos : ivec3)
    y[pos] = x[pos + [-1, 0, 0]] + x[pos + [0, -1, 0]] + 2 * x[pos] + x[pos + [0, 1, 0]] + x[pos + [1, 0, 0]]
endfunction

% += only: private copies, unless the same array comes twice
function [] = __kernel__ count(v : vec, h : vec, g : vec, pos : int)
    h[v[pos]] += 1
    g[mod(pos, numel(g))] -= 0.5
endfunction

% zeros stored into fresh shared memory are dropped; the memory must still read as zero
function [] = __kernel__ shz(o : vec, blkpos : int, blkdim : int, blkidx : int)
    s = shared(64)
    if blkpos < 32
        s[blkpos] = 0
    endif
    syncthreads
    s[blkpos] += blkpos
    syncthreads
    o[blkidx * blkdim + blkpos] = s[63 - blkpos] + s[blkpos]
endfunction

function r = host_blur(x, i, j, k)
    r = 2 * x[i, j, k]
    if i > 0
        r += x[i - 1, j, k]
    endif
    if j > 0
        r += x[i, j - 1, k]
    endif
    if j < size(x, 1) - 1
        r += x[i, j + 1, k]
    endif
    if i < size(x, 0) - 1
        r += x[i + 1, j, k]
    endif
endfunction

x = zeros(9, 11)
for i = 0..8
    for j = 0..10
        x[i, j] = i * 11 + j
    endfor
endfor
y = zeros(9, 11)
parallel_do(size(x), x, y, copy2)
for i = 0..8
    for j = 0..10
        assert(y[i, j] == 2 * x[i, j] + 1)
    endfor
endfor
% a launch smaller than the arrays: the general loop
y2 = zeros(9, 11)
parallel_do([4, 5], x, y2, copy2)
for i = 0..8
    for j = 0..10
        assert(y2[i, j] == (i < 4 && j < 5 ? 2 * x[i, j] + 1 : 0))
    endfor
endfor

c = zeros(13, 40, 3)
for i = 0..12
    for j = 0..39
        for k = 0..2
            c[i, j, k] = mod(i * 7 + j * 5 + k * 3, 17)
        endfor
    endfor
endfor
b = zeros(size(c))
parallel_do(size(c), c, b, blur)
for i = 0..12
    for j = 0..39
        for k = 0..2
            assert(b[i, j, k] == host_blur(c, i, j, k))
        endfor
    endfor
endfor
% a launch covering part of the array: rows end inside it
b2 = zeros(size(c))
parallel_do([13, 20, 3], c, b2, blur)
for i = 0..12
    for j = 0..19
        assert(b2[i, j, 0] == host_blur(c, i, j, 0))
    endfor
endfor

N = 20000
v = zeros(N)
for i = 0..N-1
    v[i] = mod(i * 13, 37)
endfor
h = zeros(37)
g = zeros(5)
parallel_do(N, v, h, g, count)
hh = zeros(37)
for i = 0..N-1
    hh[v[i]] += 1
endfor
for k = 0..36
    assert(h[k] == hh[k])
endfor
for k = 0..4
    assert(g[k] == -0.5 * N / 5)
endfor
% the same array as h and g: updates must not be lost
hg = zeros(37)
parallel_do(N, v, hg, hg, count)
ref = copy(hh)
for i = 0..N-1
    ref[mod(i, 37)] -= 0.5
endfor
for k = 0..36
    assert(hg[k] == ref[k])
endfor

% h[v] += 1 is counted privately; the result must still be what the float additions give
% one by one: from 0.5, and past 2^24 where adding 1 no longer changes a float
function [] = __kernel__ bump(v : vec, h : vec, pos : int)
    h[v[pos]] += 1
endfunction
M = 30000
w = zeros(M)
for i = 0..M-1
    w[i] = mod(i, 3)
endfor
hb = [0.5, 16777200, 7]
hr = copy(hb)
parallel_do(M, w, hb, bump)
for i = 0..M-1
    hr[w[i]] += 1
endfor
for k = 0..2
    assert(hb[k] == hr[k])
endfor

o = zeros(64 * 5)
parallel_do([[64 * 5], [64]], o, shz)
for b = 0..4
    for t = 0..63
        assert(o[b * 64 + t] == (63 - t) + t)
    endfor
endfor
print "fast_paths: ok"
