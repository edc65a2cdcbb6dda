% Precedence, associativity and literals.
a = -2^2
b = 2^-1
c = 2^3^2
d = a + b * c mod 4 - 1
e = x .* y ./ z .^ 2
f = !a && b || c == d
g = a < b ? 1 : c > d ? 2 : 3
r1 = 0..10
r2 = 0..0.1..1
r3 = (-r..r).^2
r4 = n-1..-1..0
n = [1e37, -1.9e-4, 0., .5, 1.0, 0i, 2.5j, 1j, 42, 9223372036854775807, 99999999999999999999]
s = "H:\out\tab\t\"
m1 = [1, 2; 3, 4]
m2 = [[1, 2], [3, 4]]
m3 = []
t = (1, x, "y")
i1 = x[:, 2]
i2 = y_sh[i, 0..3]
i3 = x[pos][0]
fld = a.b.c
meth = t.shfl_down(v, 16)
ty = typename(mat[scalar'half])(100, 100)
cons = cube[int](n, m, 3)
old = (a[0] <- v)
cas = (a[0] <- (expected, new))
post = (a += 1)
$target = sh$x + $y
g2 = (a) -
  (b)
