% Kernel outputs and parallel-loop reductions with different operators in one kernel: each
% output combines its threads' values with its own operator (min, max, sum, product). Until
% session 5 the last operator written was used for all of them, so `mn __=` next to `mx ^^=`
% gave -Inf. References: while loops, which stay serial.

function [mn : scalar, mx : scalar, s : scalar, cnt : int] = __kernel__ stats(x : vec, pos : int)
    mn __= x[pos]
    mx ^^= x[pos]
    s += x[pos]
    s -= 0.5
    cnt += x[pos] > 0 ? 1 : 0
endfunction

function [lo : int, hi : int, p : scalar] = __kernel__ istats(v : vec[int], pos : int)
    lo __= v[pos]
    hi ^^= v[pos]
    p *= v[pos] == 0 ? 1 : 1 + 1 / (v[pos] * v[pos])
endfunction

n = 1000
x = zeros(n)
for i = 0..n-1
    x[i] = mod(i * 7919, 1013) - 506.25
endfor
[mn, mx, s, cnt] = parallel_do(n, x, stats)
rmn = 1e30
rmx = -1e30
rs = 0.0
rc = 0
i = 0
while i < n
    rmn = min(rmn, x[i])
    rmx = max(rmx, x[i])
    rs = rs + x[i] - 0.5
    if x[i] > 0
        rc = rc + 1
    endif
    i = i + 1
endwhile
assert(mn == rmn && mx == rmx && cnt == rc)
assert(abs(s - rs) < 1e-6 * n * 506)

v = vec[int](37)
for i = 0..36
    v[i] = mod(i * 13, 37) - 18
endfor
[lo, hi, p] = parallel_do(37, v, istats)
rlo = 100
rhi = -100
rp = 1.0
i = 0
while i < 37
    rlo = min(rlo, v[i])
    rhi = max(rhi, v[i])
    if v[i] != 0
        rp = rp * (1 + 1 / (v[i] * v[i]))
    endif
    i = i + 1
endwhile
assert(lo == rlo && hi == rhi && abs(p - rp) < 1e-5 * rp)   % kernels compute in single precision by default

% the same as parallel loops (oq check --explain: one kernel with four reductions)
a = 1e30
b = -1e30
t = 0.0
c = 0
for i = 0..n-1
    a __= x[i]
    b ^^= x[i]
    t += x[i]
    t -= 0.5
    c += x[i] > 0 ? 1 : 0
endfor
assert(a == rmn && b == rmx && c == rc && abs(t - rs) < 1e-6 * n * 506)

% int and scalar reductions in one loop: one kernel whose outputs are an int (cnt, hi) and
% a scalar (u), each keeping the serial loop's type (int division tells them apart); the
% second call launches the same kernel again
function [cnt, u, hi] = count_sum_max(x : vec, n : int)
    cnt = 0
    u = 0.0
    hi = -1000
    for i = 0..n-1
        if x[i] > 0
            cnt += 1
            u += x[i]
        endif
        hi ^^= mod(i * 7, 1000)
    endfor
endfunction
for rep = 0..1
    [cnt, u, hi] = count_sum_max(x, n)
    qc = cnt
    qc /= 7
    qh = hi
    qh /= 7
    assert(cnt == rc && qc == floor(rc / 7) && hi == 999 && qh == 142)
    ru = 0.0
    i = 0
    while i < n
        if x[i] > 0
            ru = ru + x[i]
        endif
        i = i + 1
    endwhile
    assert(abs(u - ru) < 1e-6 * n * 506)
endfor
print "outputs_mixed_ops: ok"
