% tic()/toc() run (their printed time is not checked); rand gives values in [0, 1) of the
% requested shape.

tic()
s = 0
for i = 1..1000
    s += i
endfor
toc("loop")
assert(s == 500500)

r = rand(30, 40)
assert(size(r, 0) == 30 && size(r, 1) == 40)
lo = 1
hi = 0
total = 0.0
for i = 0..29
    for j = 0..39
        lo = min(lo, r[i, j])
        hi = max(hi, r[i, j])
        total += r[i, j]
    endfor
endfor
assert(lo >= 0 && hi < 1)
assert(hi - lo > 0.5)                       % 1200 draws are not all alike
assert(abs(total / 1200 - 0.5) < 0.1)       % the mean of uniform draws

% floor(rand * 256) gives integer image values 0..255
im = floor(rand(8, 8, 3) * 256)
for i = 0..7
    for j = 0..7
        for k = 0..2
            v = im[i, j, k]
            assert(v == floor(v) && v >= 0 && v <= 255)
        endfor
    endfor
endfor
print "tictoc_rand: ok"
