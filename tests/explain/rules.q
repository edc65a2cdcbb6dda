% `oq check --explain`: one line per host loop nest, what was decided and why.
function y : scalar = __device__ sq(x : scalar)
    y = x * x
endfunction

function y = host_twice(x)
    y = 2 * x
endfunction

x = zeros(8, 6)
v = zeros(8)
for m = 0..7
    for n = 0..5
        x[m, n] = m + n
    endfor
endfor
s = 0
mx = 0
for m = 0..7
    s += sq(v[m])
endfor
for k = 0..7
    mx ^^= v[k]
    s += v[k]
endfor
for k = 1..7
    v[k] = v[k - 1] + 1
endfor
for k = 0..6
    v[k] = v[k + 1]
endfor
t = 0
for k = 0..7
    t = t * 2 + v[k]
    v[k] = t
endfor
for k = 0..7
    v[k] = host_twice(k)
endfor
for k = 0..7
    print v[k]
endfor
for k = 0..7
    if v[k] > 3
        break
    endif
endfor
for k = 0..7
    v[0] = k
endfor
h = zeros(4)
for k = 0..7
    h[v[k]] += 1
    s += h[k]
endfor
for k = 0..7
    w = v[k] * 2
    v[k] = w
endfor
print w
for e = v
    s += e
endfor
for m = 0..7
    for n = m..5
        x[m, n] = 0
    endfor
endfor
!parallel for
for k = 0..7
    h[k + 1] = h[k]
endfor
for r = 0..2
    print r
    for k = 0..7
        v[k] = r
    endfor
endfor
for m = 0..3
    t = 0
    for m = 0..2
        t = t + m
    endfor
    v[m] = t
endfor
