% Complex numbers: complex(), 0i, literals with i and j, abs, real, imag, arithmetic.

z = complex(3, 4)
assert(real(z) == 3 && imag(z) == 4)
assert(abs(z) == 5)

w = 1 + 2i
assert(real(w) == 1 && imag(w) == 2)
w2 = 1 + 2j
assert(w2 == w)

zero = 0i
assert(real(zero) == 0 && imag(zero) == 0)
assert(abs(zero) == 0)

% (a+bi)(c+di) = (ac-bd) + (ad+bc)i
p = z * w
assert(real(p) == 3 * 1 - 4 * 2 && imag(p) == 3 * 2 + 4 * 1)
s = z + w
assert(real(s) == 4 && imag(s) == 6)
d = z - w
assert(real(d) == 2 && imag(d) == 2)
q = z / complex(0, 1)          % (3+4i)/i = 4-3i
assert(abs(real(q) - 4) < 1e-6 && abs(imag(q) + 3) < 1e-6)

% i*i = -1
ii = complex(0, 1) * complex(0, 1)
assert(real(ii) == -1 && imag(ii) == 0)

% squaring in a loop: z^2 + c, the Mandelbrot step, against real arithmetic
c = complex(-0.5, 0.25)
zz = 0i
xr = 0.0
xi = 0.0
for n = 1..5
    zz = zz * zz + c
    [xr, xi] = [xr * xr - xi * xi - 0.5, 2 * xr * xi + 0.25]
    assert(abs(real(zz) - xr) < 1e-5 && abs(imag(zz) - xi) < 1e-5)
endfor

% complex() with one argument, real scalars mixed with complex
r = complex(-1.42)
assert(real(r) == -1.42 && imag(r) == 0)
m = 2 * complex(1.5, -0.5)
assert(real(m) == 3 && imag(m) == -1)

% abs of a purely imaginary number
assert(abs(2i) == 2)
assert(abs(complex(-5, 12)) == 13)

% complex vectors
zv = [complex(1, 1), complex(0, 2)]
assert(imag(zv[1]) == 2)
av = abs(zv)
assert(abs(av[0] - sqrt(2)) < 1e-6 && av[1] == 2)
print "complex: ok"
