% Every atomic compound operator on every element type, in global and in shared memory.
% The operands are chosen so that the final values do not depend on the order of the
% threads (sums of small integers, products of powers of two, bit masks, maxima); the
% reference applies the same operations one after the other in a host loop.
% On the GPU, add/sub/min/max/and/or/xor of int32 and add/sub of scalars are native atomics,
% the rest compare-and-swap loops (docs/cuda.md); on the CPU they are __atomic builtins.

N = 100

function [] = __kernel__ ops(a, r, pos : int)
    r[pos, 0] = (a[0] += 1)
    r[pos, 1] = (a[1] -= 1)
    r[pos, 2] = (a[2] ^^= mod(pos * 37, 101))
    r[pos, 3] = (a[3] __= 100 - mod(pos * 37, 101))
    r[pos, 4] = (a[4] |= shl(1, mod(pos, 6)))
    r[pos, 5] = (a[5] &= 127 - shl(1, mod(pos, 5)))
    r[pos, 6] = (a[6] ~= mod(pos, 64))
    if pos < 5
        r[pos, 7] = (a[7] *= 2)
    endif
    if pos < 3
        r[pos, 8] = (a[8] /= 2)
    endif
    if pos < 10
        r[pos, 9] = (a[9] ^= (pos == 4 ? 2 : 1))
    endif
    a[10] += 2
    a[11] -= 3
endfunction

function ref = host_ops(a0)
    ref = copy(a0)
    for pos = 0..N-1
        ref[0] += 1
        ref[1] -= 1
        ref[2] ^^= mod(pos * 37, 101)
        ref[3] __= 100 - mod(pos * 37, 101)
        ref[4] |= shl(1, mod(pos, 6))
        ref[5] &= 127 - shl(1, mod(pos, 5))
        ref[6] ~= mod(pos, 64)
        if pos < 5
            ref[7] *= 2
        endif
        if pos < 3
            ref[8] /= 2
        endif
        if pos < 10
            ref[9] ^= (pos == 4 ? 2 : 1)
        endif
        ref[10] += 2
        ref[11] -= 3
    endfor
endfunction

% the returned values are the new ones: a permutation for += and -=, bounds for the rest
function [] = check_returns(r, ref)
    seen_add = zeros(N + 1)
    seen_sub = zeros(N + 1)
    for pos = 0..N-1
        seen_add[r[pos, 0]] += 1
        seen_sub[200 - r[pos, 1]] += 1
        assert(r[pos, 2] >= mod(pos * 37, 101) && r[pos, 2] <= ref[2])
        assert(r[pos, 3] <= 100 - mod(pos * 37, 101) && r[pos, 3] >= ref[3])
        assert(and(int(r[pos, 4]), shl(1, mod(pos, 6))) != 0)
        assert(and(int(r[pos, 5]), shl(1, mod(pos, 5))) == 0)
    endfor
    for v = 1..N
        assert(seen_add[v] == 1 && seen_sub[v] == 1)
    endfor
    seen_mul = zeros(100)
    for pos = 0..4
        seen_mul[r[pos, 7]] += 1
    endfor
    for k = 1..5
        assert(seen_mul[3 * 2^k] == 1)
    endfor
endfunction

function a = make(T)
    match T with
    | 0 -> a = vec(12)
    | 1 -> a = vec[int](12)
    | 2 -> a = vec[uint8](12)
    | 3 -> a = vec[int16](12)
    | 4 -> a = vec[uint16](12)
    | 5 -> a = vec[uint32](12)
    | _ -> a = vec[int8](12)
    endmatch
endfunction

start = [0, 200, 0, 100, 0, 127, 0, 3, 100, 5, 7, 250]
for T = 0..6
    a = make(T)
    for i = 0..11
        a[i] = start[i]
    endfor
    if T == 6
        a[1] = 120      % int8: stay inside -128..127
        a[11] = 127
    endif
    ref = host_ops(a)
    r = ones(N, 10) * -1
    parallel_do(N, a, r, ops)
    for i = 0..11
        if a[i] != ref[i]
            print "element type ", T, ", a[", i, "] = ", a[i], ", expected ", ref[i]
        endif
        assert(a[i] == ref[i])
    endfor
    if T != 6
        check_returns(r, ref)
    endif
endfor

% The same operators on block-shared memory (scalar): every block works on its own copy,
% then copies it out after a barrier.
function [] = __kernel__ ops_shared(out : mat, r : mat, pos : int, blkpos : int, blkidx : int)
    s = shared(12)
    if blkpos == 0
        s[0] = 0; s[1] = 200; s[2] = 0; s[3] = 100; s[4] = 0; s[5] = 127
        s[6] = 0; s[7] = 3; s[8] = 100; s[9] = 5; s[10] = 7; s[11] = 250
    endif
    syncthreads
    p = blkpos
    r[pos, 0] = (s[0] += 1)
    r[pos, 1] = (s[1] -= 1)
    r[pos, 2] = (s[2] ^^= mod(p * 37, 101))
    r[pos, 3] = (s[3] __= 100 - mod(p * 37, 101))
    r[pos, 4] = (s[4] |= shl(1, mod(p, 6)))
    r[pos, 5] = (s[5] &= 127 - shl(1, mod(p, 5)))
    r[pos, 6] = (s[6] ~= mod(p, 64))
    if p < 5
        r[pos, 7] = (s[7] *= 2)
    endif
    if p < 3
        r[pos, 8] = (s[8] /= 2)
    endif
    if p < 10
        r[pos, 9] = (s[9] ^= (p == 4 ? 2 : 1))
    endif
    s[10] += 2
    s[11] -= 3
    syncthreads
    if blkpos < 12
        out[blkidx, blkpos] = s[blkpos]
    endif
endfunction

B = 3
out = ones(B, 12) * -1
r = ones(B * N, 10) * -1
parallel_do([[B * N], [N]], out, r, ops_shared)
ref = host_ops(start)
for b = 0..B-1
    for i = 0..11
        assert(out[b, i] == ref[i])
    endfor
    check_returns(r[b * N..b * N + N - 1, :], ref)
endfor
print "atomics_types: ok"
