% Arrays a kernel overwrites entirely are not uploaded on the GPU (rt_gpu.c, 'nocopy
% analysis); every near miss below must still upload, or the poisoned values the kernel does
% not overwrite would be lost. Each result is checked against a host loop.
function [] = __kernel__ fill_all(y : vec, pos : int)
    y[pos] = pos * 2
endfunction
function [] = __kernel__ fill_some(y : vec, pos : int)
    if pos > 0
        y[pos] = pos * 2
    endif
endfunction
function [] = __kernel__ fill_read(y : vec, pos : int)
    y[pos] = y[pos] + pos
endfunction
function [] = __kernel__ fill_2d(y : mat, pos : ivec2)
    y[pos[0], pos[1]] = pos[0] * 100 + pos[1]
endfunction
function [] = __kernel__ fill_2d_swapped(y : mat, pos : ivec2)
    y[pos[1], pos[0]] = pos[0] * 100 + pos[1]
endfunction
function [] = __kernel__ fill_return(y : vec, pos : int)
    if pos == 3
        return
    endif
    y[pos] = 7
endfunction
function [] = __kernel__ fill_two(a : vec, b : vec, pos : int)
    a[pos] = b[pos] + 1
endfunction
function [] = __kernel__ fill_nocopy(y : vec'nocopy, pos : int)
    y[pos] = pos + 0.5
endfunction

n = 64
% whole array: the kernel's values
y = ones(n) * -1
parallel_do(n, y, fill_all)
for i = 0..n-1
    assert(y[i] == 2 * i)
endfor
% y on the device already, then overwritten again
parallel_do(n, y, fill_all)
assert(y[n-1] == 2 * (n-1))
% a conditional write keeps y[0]
y = ones(n) * -1
parallel_do(n, y, fill_some)
assert(y[0] == -1)
for i = 1..n-1
    assert(y[i] == 2 * i)
endfor
% a read of y needs its values
y = ones(n) * 10
parallel_do(n, y, fill_read)
for i = 0..n-1
    assert(y[i] == 10 + i)
endfor
% a launch smaller than y leaves the rest
y = ones(n) * -1
parallel_do(n / 2, y, fill_all)
assert(y[n/2] == -1 && y[n-1] == -1 && y[n/2-1] == n - 2)
% 2-D, components in order
m = ones(6, 9) * -1
parallel_do(size(m), m, fill_2d)
for i = 0..5
    for j = 0..8
        assert(m[i, j] == i * 100 + j)
    endfor
endfor
% 2-D, components swapped: a square launch writes everything, but the analysis does not
% recognize it (the result must be right either way)
q = ones(5, 5) * -1
parallel_do(size(q), q, fill_2d_swapped)
for i = 0..4
    for j = 0..4
        assert(q[j, i] == i * 100 + j)
    endfor
endfor
% a return before the write keeps y[3]
y = ones(n) * -1
parallel_do(n, y, fill_return)
assert(y[3] == -1 && y[4] == 7)
% the same array twice: written as a, read as b
y = ones(n) * 5
parallel_do(n, y, y, fill_two)
for i = 0..n-1
    assert(y[i] == 6)
endfor
% explicit 'nocopy, written everywhere
y = ones(n) * -1
parallel_do(n, y, fill_nocopy)
for i = 0..n-1
    assert(y[i] == i + 0.5)
endfor
print "overwrite: ok"
