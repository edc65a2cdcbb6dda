% Multi-index accesses x[i0, i1, ..] whose k-th index is pos[k] + c (+ a parameter), directly
% or through a local set once (emit_c.c: pos_comp, find_pos_locals): compiled with their
% bounds tests hoisted out of each row. Every result is compared with a `while` loop
% reference (never parallelized), at the borders too, where the rows fall back to the
% per-access tests; outputs are poisoned first.

function [] = same(a, b)
    i = 0
    while i < size(a, 0)
        j = 0
        while j < size(a, 1)
            assert(a[i, j] == b[i, j])
            j += 1
        endwhile
        i += 1
    endwhile
endfunction

R = 11
C = 19
x = zeros(R, C)
i = 0
while i < R
    j = 0
    while j < C
        x[i, j] = mod(i * 7 + j * 5, 23) - 4
        j += 1
    endwhile
    i += 1
endwhile

% a parallel loop with non-zero lower bounds and negative offsets
y = ones(R, C) * -99
for m = 2..R-1
    for n = 1..C-2
        y[m, n] = x[m - 2, n + 1] * 3 + x[m, n - 1] - x[m - 1, n]
    endfor
endfor
assert(m == R - 1 && n == C - 2)
ref = ones(R, C) * -99
i = 2
while i <= R - 1
    j = 1
    while j <= C - 2
        ref[i, j] = x[i - 2, j + 1] * 3 + x[i, j - 1] - x[i - 1, j]
        j += 1
    endwhile
    i += 1
endwhile
same(y, ref)

% from 0 over whole arrays: element by element with the loop variables carried along
% (linear_pos_loop), then from 1 (the rows again)
for lo = 0..1
    y = ones(R, C) * -99
    for m = lo..R-1
        for n = lo..C-1
            y[m, n] = x[m, n] * 2 + m * 100 - n * 3
        endfor
    endfor
    ref = ones(R, C) * -99
    i = lo
    while i < R
        j = lo
        while j < C
            ref[i, j] = x[i, j] * 2 + i * 100 - j * 3
            j += 1
        endwhile
        i += 1
    endwhile
    same(y, ref)
endfor

% seed 000's hist_naive: a 3-deep nest reading im[m, n, k]
im = zeros(9, 14, 3)
i = 0
while i < 9
    j = 0
    while j < 14
        k = 0
        while k < 3
            im[i, j, k] = mod(i * 31 + j * 7 + k * 101, 256)
            k += 1
        endwhile
        j += 1
    endwhile
    i += 1
endwhile
h = zeros(256)
for m = 0..size(im, 0)-1
    for n = 0..size(im, 1)-1
        for k = 0..size(im, 2)-1
            v = im[m, n, k]
            h[v] += 1
        endfor
    endfor
endfor
href = zeros(256)
i = 0
while i < 9
    j = 0
    while j < 14
        k = 0
        while k < 3
            href[im[i, j, k]] += 1
            k += 1
        endwhile
        j += 1
    endwhile
    i += 1
endwhile
b = 0
while b < 256
    assert(h[b] == href[b])
    b += 1
endwhile

% hand-written: locals set once from pos plus a parameter (negative here), on a clamped
% and a zero-padded array: rows that leave the array take the per-access path
function [] = __kernel__ shifted(src : mat'clamped, z : mat'safe, dst : mat, di : int, pos : ivec2)
    a = pos[0] + di
    b = 1 + pos[1]
    dst[pos] = src[a, b - 3] + 100 * z[a, pos[1] + 2] + 10000 * src[pos[0] - 1, b]
endfunction

for di = -2..2
    y = ones(R, C) * -99
    parallel_do(size(y), x, x, y, di, shifted)
    ref = ones(R, C) * -99
    i = 0
    while i < R
        j = 0
        while j < C
            zz = 0
            if i + di >= 0 && i + di < R && j + 2 < C
                zz = x[i + di, j + 2]
            endif
            ref[i, j] = x[min(max(i + di, 0), R - 1), min(max(j - 2, 0), C - 1)] + 100 * zz +
                10000 * x[max(i - 1, 0), min(j + 1, C - 1)]
            j += 1
        endwhile
        i += 1
    endwhile
    same(y, ref)
endfor

% a local assigned twice is not a position: the second value must be used
function [] = __kernel__ twice(src : mat'safe, dst : mat, pos : ivec2)
    a = pos[0]
    if pos[1] > 3
        a = pos[0] + 1
    endif
    dst[pos] = src[a, pos[1]]
endfunction
y = ones(R, C) * -99
parallel_do(size(y), x, y, twice)
i = 0
while i < R
    j = 0
    while j < C
        e = 0
        if j <= 3
            e = x[i, j]
        elseif i + 1 < R
            e = x[i + 1, j]
        endif
        assert(y[i, j] == e)
        j += 1
    endwhile
    i += 1
endwhile
print "ok"
