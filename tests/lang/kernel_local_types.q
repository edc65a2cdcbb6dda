% Locals in kernel and device functions follow the host rules: a plain assignment gives
% the variable the value's kind (the compilers unify int and scalar to scalar), and a
% compound assignment on an int local with an int operand is integer arithmetic
% (j /= 2 truncates toward zero), as the bitonic sort of seed 003 relies on.

function [] = __kernel__ locals(out : mat, pos : int)
    j = 7 + pos                 % int
    j = j / 2                   % real division: j becomes scalar
    out[pos, 0] = j
    k = 7 + pos
    k /= 2                      % int compound assignment
    out[pos, 1] = k
    s = 0.5                     % scalar
    s = 3                       % stays scalar
    s = s / 2
    out[pos, 2] = s
    n = -7 - pos
    n /= 2                      % toward zero, not down
    out[pos, 3] = n
    c = 0                       % int counter
    for i = 0..pos
        c += 1
    endfor
    out[pos, 4] = c
endfunction

function y = __device__ halves(x : int)
    h = x
    h /= 2
    y = h
endfunction

function [] = __kernel__ use_halves(out : vec, pos : int)
    out[pos] = halves(pos)
endfunction

N = 6
out = ones(N, 5) * 1e9
parallel_do(N, out, locals)
for p = 0..N-1
    assert(out[p, 0] == (7 + p) / 2)
    assert(out[p, 1] == int((7 + p) / 2))
    assert(out[p, 2] == 1.5)
    assert(out[p, 3] == -int((7 + p) / 2))
    assert(out[p, 4] == p + 1)
endfor

hv = ones(N) * 1e9
parallel_do(N, hv, use_halves)
for p = 0..N-1
    assert(hv[p] == int(p / 2))
endfor
assert(halves(9) == 4)
print "kernel_local_types: ok"
