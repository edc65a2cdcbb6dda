% `!parallel for` host loops: independent iterations, and accumulation with compound
% assignments on array elements (atomic), give the same results as the serial loop.

function y = blur_rows(x : mat)
    y = zeros(size(x))
    !parallel for
    for m = 0..size(x, 0)-1
        for n = 0..size(x, 1)-1
            l = n > 0 ? x[m, n - 1] : 0
            r = n < size(x, 1) - 1 ? x[m, n + 1] : 0
            y[m, n] = l + x[m, n] + r
        endfor
    endfor
endfunction

function h = histogram(x : mat, nbins : int)
    h = zeros(nbins)
    !parallel for
    for m = 0..size(x, 0)-1
        for n = 0..size(x, 1)-1
            h[x[m, n]] += 1
        endfor
    endfor
endfunction

function s = total(x : mat)
    s = zeros(1)
    {!parallel for}
    for m = 0..size(x, 0)-1
        for n = 0..size(x, 1)-1
            s[0] += x[m, n]
        endfor
    endfor
endfunction

R = 9
C = 11
x = zeros(R, C)
for m = 0..R-1
    for n = 0..C-1
        x[m, n] = mod(m * 5 + n * 3, 8)
    endfor
endfor

y = blur_rows(x)
h = histogram(x, 8)
s = total(x)
ref_h = zeros(8)
ref_s = 0
for m = 0..R-1
    for n = 0..C-1
        want = x[m, n]
        if n > 0
            want += x[m, n - 1]
        endif
        if n < C - 1
            want += x[m, n + 1]
        endif
        assert(y[m, n] == want)
        ref_h[x[m, n]] += 1
        ref_s += x[m, n]
    endfor
endfor
for b = 0..7
    assert(h[b] == ref_h[b])
endfor
assert(s[0] == ref_s)
print "parallel_for: ok"
