% Math functions of float arrays as host array expressions: on cpu one loop over the whole
% array, which the C compiler vectorizes with glibc's vector functions (libmvec: 8 or 16
% floats per call, within 4 ulps by glibc's documentation), against the interpreter's
% double functions rounded to float (a `while` loop stays in the interpreter). Tolerance as
% in tests/lang/float_math.q: 6 * 2^-23 * |r| + 2^-126; NaN and infinities exactly.
% Arguments cover the vector functions' slow paths: large angles, overflow, the edges of
% asin's domain and outside it, negative bases of pow, zeros and infinities.

function [] = check(got, x, x2, j)
    k = 0
    while k < numel(x)
        v = x[k]
        w = x2[k]
        r = j == 0 ? sin(v) : j == 1 ? cos(v) : j == 2 ? tan(v) : j == 3 ? exp(v) : j == 4 ? log(v) : _
            j == 5 ? log2(v) : j == 6 ? log10(v) : j == 7 ? asin(v) : j == 8 ? acos(v) : j == 9 ? atan(v) : _
            j == 10 ? sinh(v) : j == 11 ? cosh(v) : j == 12 ? tanh(v) : j == 13 ? v ^ w : atan2(v, w)
        g = got[k]
        ok = g == r || (g != g && r != r) || abs(g - r) <= 6 * 2^-23 * abs(r) + 2^-126
        if !ok
            error("function ", j, " of ", v, ", ", w, ": array expression ", g, ", interpreter ", r)
        endif
        k += 1
    endwhile
endfunction

n = 6000
u = rand(n)
x = 200 * u - 100                      % angles
x[0..9] = [0, -0, 1e4, -3e4, 1e6, 0/0, 1/0, -1/0, 1e-30, 3.14159274]
y = sin(x)
check(y, x, x, 0)
y = cos(x)
check(y, x, x, 1)
t = 20 * u - 10
t[0..4] = [0, 1.57079637, -1.57079637, 0/0, 1/0]
y = tan(t)
check(y, t, t, 2)
e = 200 * u - 100                      % exp overflows above 88.7, underflows below -103
e[0..4] = [0, 88.7, 89, -104, 0/0]
y = exp(e)
check(y, e, e, 3)
l = exp(80 * u - 40)                   % logarithms over many binades; 0, negatives, inf
l[0..5] = [0, -1, 1, 1/0, 0/0, 1e-40]
y = log(l)
check(y, l, l, 4)
y = log2(l)
check(y, l, l, 5)
y = log10(l)
check(y, l, l, 6)
a = 2.2 * u - 1.1                      % outside [-1, 1]: NaN
a[0..3] = [1, -1, 0, 0.99999994]
y = asin(a)
check(y, a, a, 7)
y = acos(a)
check(y, a, a, 8)
y = atan(x)
check(y, x, x, 9)
h = 200 * u - 100                      % sinh and cosh overflow past 89.4
y = sinh(h)
check(y, h, h, 10)
y = cosh(h)
check(y, h, h, 11)
y = tanh(t)
check(y, t, t, 12)
b = 20 * u - 5                         % pow: negative bases give NaN unless the exponent is whole
p = 20 * rand(n) - 10
p[0..5] = [2, 3, 0.5, 0, -1, 40]
b[0..5] = [-2, -2, -4, 0, 0, 10]
y = b .^ p
check(y, b, p, 13)
q = 2 * rand(n) - 1
q[0..3] = [0, -0, 1, -1]
y = atan2(x, q)
check(y, x, q, 14)
print "ok"
