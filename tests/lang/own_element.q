% Compound assignments into a thread's own element (x[pos] with every use of x at pos)
% need no atomic (emit_analysis.c em_own_update; tests/run.sh checks the emitted C has no
% compare-and-swap for them): results against host while loops. The same array passed as
% two arguments, one updated elsewhere, keeps its atomics (the launch's aliasing is part of
% the kernel's key): every update must land.

function [] = __kernel__ axpy(y : vec, x : vec, a : scalar, pos : int)
    y[pos] += a * x[pos]
    y[pos] *= 2
endfunction

function [] = __kernel__ grid2(m : mat, pos : ivec2)
    m[pos] -= pos[0] * 10 + pos[1]
    m[pos] /= 2
endfunction

function [] = __kernel__ mixed(a : vec, b : vec, pos : int)
    a[pos] += 1
    b[mod(pos + 1, numel(b))] += 1
endfunction

% pos given another value: every thread's y[pos] is y[0] (the kernel runs in the
% interpreter: compiled code takes pos as the thread's own)
function [] = __kernel__ repos(y : vec, pos : int)
    pos = 0
    y[pos] += 1
endfunction

function [] = __kernel__ counts(c : vec[int], pos : int)
    c[pos] += pos
    c[pos] *= 3
endfunction

n = 1000
x = zeros(n)
y = zeros(n)
i = 0
while i < n
    x[i] = mod(i * 7, 13) * 0.25
    y[i] = i * 0.5
    i += 1
endwhile
parallel_do(n, y, x, 2.0, axpy)
i = 0
while i < n
    assert(y[i] == (i * 0.5 + 2 * mod(i * 7, 13) * 0.25) * 2)
    i += 1
endwhile

m = ones(37, 53) * 1000
parallel_do(size(m), m, grid2)
i = 0
while i < 37
    j = 0
    while j < 53
        assert(m[i, j] == (1000 - (i * 10 + j)) / 2)
        j += 1
    endwhile
    i += 1
endwhile

% the same array twice: a's own element is b's element of another thread
z = zeros(4096)
parallel_do(4096, z, z, mixed)
i = 0
while i < 4096
    assert(z[i] == 2)
    i += 1
endwhile
% distinct arrays: each gets its one update per element
a = zeros(4096)
b = zeros(4096)
parallel_do(4096, a, b, mixed)
i = 0
while i < 4096
    assert(a[i] == 1 && b[i] == 1)
    i += 1
endwhile

c = vec[int](300)
parallel_do(300, c, counts)
i = 0
while i < 300
    assert(c[i] == 3 * i)
    i += 1
endwhile
r = zeros(100)
parallel_do(100, r, repos)
assert(r[0] == 100 && sum(r) == 100)
print "own element ok"
