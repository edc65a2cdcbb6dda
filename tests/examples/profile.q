% `oq run --profile` (tests/examples/run.sh checks the table): fill runs 3 times, twice 5
% times, cond_sync (a barrier under a thread-dependent condition: fibers on the CPU; on the
% GPU it runs there, since the GPU releases such a barrier as the oracle does) 2 times,
% long_row (a slice of 20 elements: the interpreter runs it) once. On the GPU: x and y (1000 floats, 4000 bytes each) are uploaded once, by
% the first launch that uses them (each kernel reads what it writes, so no overwrite
% analysis skips the upload), and y is downloaded once, when the host reads it.

function [] = __kernel__ fill(x : vec, v : scalar, pos : int)
    x[pos] = x[pos] + v + pos
endfunction

function [] = __kernel__ twice(x : vec, y : vec, pos : int)
    y[pos] = y[pos] + 2 * x[pos]
endfunction

function [] = __kernel__ cond_sync(z : vec, blkpos : int)
    if blkpos < 2
        syncthreads
    endif
    z[blkpos] = 1
endfunction

function [] = __kernel__ long_row(m : mat, s : vec, pos : int)
    r = m[pos, :]
    s[pos] = r[19]
endfunction

x = zeros(1000)
y = zeros(1000)
for i = 0..2
    parallel_do(1000, x, i, fill)
endfor
for i = 0..4
    parallel_do(1000, x, y, twice)
endfor
assert(y[999] == 10 * (3 + 3 * 999))     % x = 3 pos + 3 after 3 fills, y = 5 (2 x)
z = zeros(4)
for i = 0..1
    parallel_do(4, z, cond_sync)
endfor
assert(z[3] == 1)
m = ones(2, 20)
s = zeros(2)
parallel_do(2, m, s, long_row)
assert(s[1] == 1)
print "profile: ok"
