% Automatic parallel loops and reductions (transform_parloop.c): each host loop below gives
% what the serial loop gives. The references are `while` loops, which are never
% parallelized; outputs are poisoned first. tests/explain/parloop_rules.out says which of
% these loops run as kernels and why the others stay serial.

function [] = __device__ nothing()
endfunction

function y : scalar = __device__ sq(x : scalar)
    y = x * x
endfunction

function y = host_twice(x)
    y = 2 * x
endfunction

function [] = near(a, b)
    assert(abs(a - b) <= 1e-5 * max(1, abs(b)))
endfunction

R = 13
C = 17
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

% independent element writes, loop variables keep their last values
y = ones(R, C) * -99
for m = 0..R-1
    for n = 0..C-1
        y[m, n] = 2 * x[m, n] + m - n
    endfor
endfor
assert(m == R - 1 && n == C - 1)
i = 0
while i < R
    j = 0
    while j < C
        assert(y[i, j] == 2 * x[i, j] + i - j)
        j += 1
    endwhile
    i += 1
endwhile

% the reduction loop of seed 001
[sum1, sum2] = [0.0, 0.0]
for m=0..size(x,0)-1
    for n=0..size(x,1)-1
        sum1 += x[m,n]
        sum2 += x[m,n]^2
    endfor
endfor
[r1, r2] = [0.0, 0.0]
i = 0
while i < R * C
    r1 += x[int(i / C), mod(i, C)]
    r2 += x[int(i / C), mod(i, C)]^2
    i += 1
endwhile
near(sum1, r1)
near(sum2, r2)

% maximum, minimum, product, and the spelled-out forms; values before the loop count
v = zeros(40)
k = 0
while k < 40
    v[k] = mod(k * 11, 17) - 8
    k += 1
endwhile
mx = -100
mn = 3
for k = 0..39
    mx ^^= v[k]
endfor
for k = 0..39
    mn = min(mn, v[k])
endfor
p = 2.0
for k = 0..4
    p = p * (v[k] + 10)
endfor
s = 5
for k = 0..39
    s = s + v[k]
endfor
d = 1000
for k = 0..39
    d -= v[k]
endfor
[rmx, rmn, rp, rs, rd] = [-100, 3, 2.0, 5, 1000]
k = 0
while k < 40
    rmx = max(rmx, v[k])
    rmn = min(rmn, v[k])
    if k < 5
        rp = rp * (v[k] + 10)
    endif
    rs = rs + v[k]
    rd = rd - v[k]
    k += 1
endwhile
assert(mx == rmx && mn == rmn && s == rs && d == rd)
near(p, rp)

% an int counter stays an int
cnt = 0
for k = 0..39
    cnt += 1
endfor
q3 = cnt
q3 /= 3
assert(cnt == 40 && q3 == 13)

% atomic updates at data-dependent indices (a histogram)
h = zeros(23)
for m = 0..R-1
    for n = 0..C-1
        h[x[m, n] + 4] += 1
    endfor
endfor
rh = zeros(23)
i = 0
while i < R * C
    rh[x[int(i / C), mod(i, C)] + 4] += 1
    i += 1
endwhile
k = 0
while k < 23
    assert(h[k] == rh[k])
    k += 1
endwhile

% private temporaries (assigned on every path before use), inner serial loops, device calls
rows = ones(R) * -99
for m = 0..R-1
    acc = 0
    for n = 0..C-1
        if x[m, n] > 3
            t = sq(x[m, n])
        else
            t = x[m, n]
        endif
        acc += t
    endfor
    nothing()
    rows[m] = acc
endfor
i = 0
while i < R
    want = 0
    j = 0
    while j < C
        want += x[i, j] > 3 ? x[i, j] * x[i, j] : x[i, j]
        j += 1
    endwhile
    assert(rows[i] == want)
    i += 1
endwhile

% carried dependencies stay serial
c = zeros(40)
for k = 1..39
    c[k] = c[k - 1] + v[k]
endfor
z = 0.5
w = ones(40) * -99
for k = 0..39
    z = z * 0.5 + v[k]
    w[k] = z
endfor
rc = 0
rz = 0.5
k = 0
while k < 40
    if k > 0
        rc += v[k]
    endif
    rz = rz * 0.5 + v[k]
    assert(c[k] == rc && w[k] == rz)
    k += 1
endwhile

% a host function, a break, a read of another iteration's element: serial, same results
u = zeros(40)
for k = 0..39
    u[k] = host_twice(v[k])
endfor
last = -1
for k = 0..39
    if v[k] > 7
        last = k
        break
    endif
endfor
sh = zeros(40)
for k = 0..38
    sh[k] = v[k + 1]
    sh[k + 1] += 0
endfor
rlast = -1
k = 0
while k < 40
    if rlast < 0 && v[k] > 7
        rlast = k
    endif
    assert(u[k] == 2 * v[k])
    if k < 39
        assert(sh[k] == v[k + 1])
    endif
    k += 1
endwhile
assert(last == rlast && last > 0)

% empty and fractional ranges; the loop variable of an empty loop keeps its value
q = 7
for q = 5..4
    u[q] = 1000
endfor
assert(q == 7 && u[0] == 2 * v[0])
ss = 0
for tt = 0..0.5..2
    ss += tt
endfor
assert(tt == 2 && ss == 5)

% two names for one array: the loop is left serial at run time
a = zeros(10)
b = a
for k = 1..9
    a[k] = b[k - 1] + 1
endfor
assert(a[9] == 9)

% an accumulator that holds a vector is left serial at run time
acc3 = zeros(3)
for k = 0..39
    acc3 += v[k]
endfor
assert(acc3[0] == rs - 5 && acc3[2] == rs - 5)
% int and scalar reductions keep the serial loop's types (int division tells them apart),
% also when the loop runs again
xi = vec[int](40)
k = 0
while k < 40
    xi[k] = k * 3
    k += 1
endwhile
for rep = 0..1
    [ai, bi, ci] = [0, 0, 0]
    for k = 0..39
        ai += v[k]          % scalars: ai becomes a scalar
        bi += k * 2         % ints: stays an int
    endfor
    for k = 0..39
        ci += xi[k]         % an int array: stays an int
    endfor
    [qa, qb, qc] = [ai, bi, ci]
    qa /= 4
    qb /= 7
    qc /= 7
    assert(ai == rs - 5 && qa == (rs - 5) / 4)
    assert(bi == 1560 && qb == 222 && ci == 2340 && qc == 334)
endfor
print "parloop_rules: ok"
