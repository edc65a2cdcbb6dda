% Atomic compound assignments under contention: every thread of a 10^6-thread launch
% updates one of 16 bins, in an int array, a float array and with a float payload; the
% bins are checked against counts made on the host. Also max/min/or/and/xor on 16 bins and
% exchange as a lock-free ticket dispenser.

function [] = __kernel__ hist16(x : vec[int], hi : vec[int], hf : vec, hw : vec, pos : int)
    b = x[pos]
    hi[b] += 1
    hf[b] += 1.0
    hw[b] += 0.5 * mod(pos, 4)      % exact in float: multiples of 0.5 below 2^23
endfunction

function [] = __kernel__ extremes(x : vec[int], mx : vec[int], mn : vec, bits : vec[int], pos : int)
    b = x[pos]
    mx[b] ^^= pos
    mn[b] __= pos
    bits[b] |= shl(1, mod(pos, 20))
    bits[16 + b] ~= 1
endfunction

function [] = __kernel__ tickets(counter : vec[int], got : vec[int], pos : int)
    % compare-and-exchange loop: take the next ticket
    t = counter[0]
    while true
        old = (counter[0] <- (t, t + 1))
        if old == t
            break
        endif
        t = old
    endwhile
    got[t] += 1
endfunction

N = 1000000
x = vec[int](N)
for i = 0..N-1
    x[i] = mod(i * 7 + int(i / 3), 16)
endfor
hi = vec[int](16)
hf = zeros(16)
hw = zeros(16)
parallel_do(N, x, hi, hf, hw, hist16)
ci = vec[int](16)
cw = zeros(16)
for i = 0..N-1
    ci[x[i]] += 1
    cw[x[i]] += 0.5 * mod(i, 4)
endfor
total = 0
for b = 0..15
    assert(hi[b] == ci[b])
    assert(hf[b] == ci[b])
    assert(hw[b] == cw[b])
    total += hi[b]
endfor
assert(total == N)

M = 200000
mx = vec[int](16) - 1
mn = ones(16) * 1e9
bits = vec[int](32)
parallel_do(M, x, mx, mn, bits, extremes)
for b = 0..15
    lastp = -1
    firstp = -1
    cnt = 0
    for i = 0..M-1
        if x[i] == b
            if firstp < 0
                firstp = i
            endif
            lastp = i
            cnt += 1
        endif
    endfor
    assert(mx[b] == lastp)
    assert(mn[b] == firstp)
    assert(bits[16 + b] == mod(cnt, 2))
endfor
assert(bits[0] > 0)

K = 5000
counter = vec[int](1)
got = vec[int](K)
parallel_do(K, counter, got, tickets)
assert(counter[0] == K)
for i = 0..K-1
    assert(got[i] == 1)
endfor
print "atomics_contention: ok"
