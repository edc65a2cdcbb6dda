% Parallel loops over ranges from 0 without a step: an element indexed by the loop
% variables in their order, A[m, n, k], runs as the launch's own element (vector loads, the
% linear loop: transform_parloop's index_by_pos, em_pos_index); every other form keeps its
% meaning: fewer indices than dimensions (the last index runs over the rest), the variables
% used otherwise, swapped, ranges from 1. The references are while loops (never
% parallelized); outputs are poisoned first.

function x = ramp3(a, b, c)
    x = zeros(a, b, c)
    i = 0
    while i < a * b * c
        x[i] = mod(i * 37, 251) - 20
        i = i + 1
    endwhile
endfunction

function [] = same(got, want, what)
    assert(numel(got) == numel(want))
    bad = 0
    i = 0
    while i < numel(want)
        if got[i] != want[i]
            bad = bad + 1
        endif
        i = i + 1
    endwhile
    if bad > 0
        print what, ": ", bad, " elements differ"
    endif
    assert(bad == 0)
endfunction

x = ramp3(37, 29, 3)

% 1. a map over a cube, the loop variables used only as the element
y = ones(37, 29, 3) * -777
for m = 0..size(x, 0)-1
    for n = 0..size(x, 1)-1
        for k = 0..size(x, 2)-1
            y[m, n, k] = x[m, n, k] * 2 + 1
        endfor
    endfor
endfor
r = ones(37, 29, 3) * -777
i = 0
while i < numel(x)
    r[i] = x[i] * 2 + 1
    i = i + 1
endwhile
same(y, r, "map")

% 2. seed 000's histogram (bins from the elements) and a reduction over the same elements
h = zeros(256)
s = 0.0
for m = 0..size(x, 0)-1
    for n = 0..size(x, 1)-1
        for k = 0..size(x, 2)-1
            v = x[m, n, k] + 20
            h[v] += 1
            s += x[m, n, k]
        endfor
    endfor
endfor
rh = zeros(256)
rs = 0.0
i = 0
while i < numel(x)
    rh[x[i] + 20] = rh[x[i] + 20] + 1
    rs = rs + x[i]
    i = i + 1
endwhile
same(h, rh, "histogram")
assert(s == rs)

% 3. two loops over a cube: C[m, n] is row m, element n of the rest (a 3x... slice), not C[m, n, 0]
C = ramp3(6, 5, 4)
y2 = ones(6, 20) * -777
for m = 0..5
    for n = 0..19
        y2[m, n] = C[m, n]
    endfor
endfor
r2 = ones(6, 20) * -777
i = 0
while i < 6
    j = 0
    while j < 20
        r2[i, j] = C[i * 20 + j]
        j = j + 1
    endwhile
    i = i + 1
endwhile
same(y2, r2, "fewer indices")

% 4. the loop variables used besides the element, and swapped (a transpose)
X = ramp3(23, 31, 1)
X = reshape(X, [23, 31])
y3 = ones(23, 31) * -777
y4 = ones(31, 23) * -777
for m = 0..22
    for n = 0..30
        y3[m, n] = X[m, n] + 1000 * m - n
        y4[n, m] = X[m, n]
    endfor
endfor
r3 = ones(23, 31) * -777
r4 = ones(31, 23) * -777
i = 0
while i < 23
    j = 0
    while j < 31
        r3[i, j] = X[i, j] + 1000 * i - j
        r4[j, i] = X[i, j]
        j = j + 1
    endwhile
    i = i + 1
endwhile
same(y3, r3, "variables used")
same(y4, r4, "swapped")

% 5. ranges from 1 and with a step keep their offsets
y5 = ones(23, 31) * -777
for m = 1..22
    for n = 0..2..30
        y5[m, n] = X[m, n] * 3
    endfor
endfor
r5 = ones(23, 31) * -777
i = 1
while i < 23
    j = 0
    while j < 31
        r5[i, j] = X[i, j] * 3
        j = j + 2
    endwhile
    i = i + 1
endwhile
same(y5, r5, "offsets")

% 6. one dimension, with a continue
w = reshape(ramp3(1000, 1, 1), [1000])
z = ones(1000) * -777
for i = 0..999
    if w[i] < 0
        continue
    endif
    z[i] = w[i] ^ 2
endfor
rz = ones(1000) * -777
i = 0
while i < 1000
    if w[i] >= 0
        rz[i] = w[i] ^ 2
    endif
    i = i + 1
endwhile
same(z, rz, "one dimension")
% 7. a range of a scalar extent: the loop variable keeps its range's type where it is read
%    besides the element (make test's parloop-diff compares this output with --no-parloop)
N = 40.0
q = ones(40) * -777
for i = 0..N-1
    q[i] = i / 4 + w[i]
endfor
print q[0..5]
% 8. arrays larger than the loop's range (not the launch's shape: the linear loop's guard
%    falls back to the positions)
z2 = ones(10, 7) * -777
W = reshape(ramp3(20, 9, 1), [20, 9])
for m = 0..9
    for n = 0..6
        z2[m, n] = W[m, n] + 4
    endfor
endfor
rz2 = ones(10, 7) * -777
i = 0
while i < 10
    j = 0
    while j < 7
        rz2[i, j] = W[i, j] + 4
        j = j + 1
    endwhile
    i = i + 1
endwhile
same(z2, rz2, "larger arrays")
% 9. a loop inside over a name of the nest: after it the name holds that loop's last value,
%    so B9[m] is not the iteration's own element (every iteration writes B9[2]): the nest
%    stays serial (the loop variable is assigned in the body)
B9 = ones(4) * -777
for m = 0..3
    t = 0
    for m = 0..2
        t = t + m
    endfor
    B9[m] = t
endfor
same(B9, [-777, -777, 3, -777], "inner loop over m")
print "parloop_pos ok"
