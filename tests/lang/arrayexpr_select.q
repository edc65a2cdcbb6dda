% c ? a : b with an array condition is element-wise (docs/language.md, "Host array
% expressions"): both branches are evaluated, each element chosen by the condition's. On
% cpu and cuda a statement with ?: is one kernel. Checked against plain loops; floats
% within 1e-6 relative, ints exactly.

x = rand(48, 40) - 0.5
y = x > 0 ? x : 0.1 * x
assert(size(y) == size(x))
for k = 0..numel(x) - 1
    r = x[k] > 0 ? x[k] : 0.1 * x[k]
    assert(abs(y[k] - r) <= 1e-6 * (1 + abs(r)))
endfor

% ints stay ints and exact; numbers broadcast
n = int(floor(x * 1000))
a = n > 0 ? n : -n
b = n mod 3 == 0 ? 1 : 0
c = n < -100 ? -100 : (n > 100 ? 100 : n)
cnt = 0
for k = 0..numel(n) - 1
    assert(a[k] == abs(n[k]))
    assert(b[k] == (n[k] mod 3 == 0 ? 1 : 0))
    assert(c[k] == max(-100, min(100, n[k])))
    cnt += n[k] mod 3 == 0
endfor
assert(sum(b) == cnt)

% inside a reduction, and an int condition with scalar branches
s = sum(x > 0 ? x .* x : 0)
acc = 0.0
for k = 0..numel(x) - 1
    if x[k] > 0
        acc += x[k] * x[k]
    endif
endfor
assert(abs(s - acc) < 1e-4 * acc)

% a number as condition picks one branch, as before: the array itself (no copy)
flag = 1
z = flag ? x : x * 2
assert(z[3] == x[3])
other = zeros(48, 40)
al = flag == 0 ? x : other
al[3] = 5
assert(other[3] == 5)

% complex branches
zc = x > 0 ? complex(x, 1) : 0
for k = 0..numel(x) - 1
    if x[k] > 0
        assert(abs(real(zc[k]) - x[k]) < 1e-6 && imag(zc[k]) == 1)
    else
        assert(zc[k] == 0)
    endif
endfor

% empty arrays
e = zeros(0, 3)
ee = e > 0 ? e : 1
assert(size(ee) == [0, 3])
print "ok"
