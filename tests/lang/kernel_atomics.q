% Compound assignments on arrays in kernels are atomic and return the new value.
% Every operator: += -= *= /= ^= &= |= ~= ^^= __=.

function [] = __kernel__ all_ops(a : vec, b : vec[int], ticket : vec, pos : int)
    ticket[pos] = (a[0] += 1)        % each thread gets a distinct new value 1..N
    a[1] -= 2
    a[2] ^^= pos
    a[3] __= pos
    b[0] |= int(2^mod(pos, 10))
    b[1] &= int(1023 - 2^mod(pos, 7))
    b[2] ~= pos
    if pos < 10
        a[4] *= 2
    endif
    if pos < 4
        a[5] /= 2
    endif
    if pos == 0
        a[6] ^= 3
    endif
endfunction

N = 200
a = [0, 0, -1, 1e6, 1, 16, 3]
b = vec[int](3)
b[1] = 1023
ticket = ones(N) * -1
parallel_do(N, a, b, ticket, all_ops)

assert(a[0] == N)
assert(a[1] == -2 * N)
assert(a[2] == N - 1)
assert(a[3] == 0)
assert(a[4] == 1024)
assert(a[5] == 1)
assert(a[6] == 27)

% the OR of 2^(pos mod 10): all ten low bits; the AND clears the seven low bits
assert(b[0] == 1023)
assert(b[1] == 1023 - 127)
% the XOR of 0..N-1, computed bit by bit on the host
ref = 0
bit = 1
for k = 0..8
    ones_count = 0
    for p = 0..N-1
        ones_count += mod(int(p / bit), 2)
    endfor
    ref += bit * mod(ones_count, 2)
    bit *= 2
endfor
assert(b[2] == ref)

% the tickets are a permutation of 1..N
seen = zeros(N + 1)
for i = 0..N-1
    t = ticket[i]
    assert(t >= 1 && t <= N)
    seen[t] += 1
endfor
for t = 1..N
    assert(seen[t] == 1)
endfor

% atomic adds into a shared histogram from a 2-D launch
function [] = __kernel__ hist2(x : mat, h : vec, pos : ivec2)
    h[x[pos]] += 1
endfunction
x = reshape(mod((0..599) * 7, 10), [20, 30])
h = zeros(10)
parallel_do(size(x), x, h, hist2)
for v = 0..9
    ref = 0
    for i = 0..19
        for j = 0..29
            if x[i, j] == v
                ref += 1
            endif
        endfor
    endfor
    assert(h[v] == ref)
endfor
print "kernel_atomics: ok"
