% Every compound assignment operator on scalar variables, and that it gives the new value.

a = 10
a += 5
assert(a == 15)
a -= 20
assert(a == -5)
a *= -3
assert(a == 15)
b = 15.0
b /= 4
assert(b == 3.75)
c = 3
c ^= 2
assert(c == 9)
d = 2.0
d ^= 0.5
assert(abs(d - sqrt(2)) < 1e-6)

% bitwise and, or, xor on ints
e = 12            % 1100
e &= 10           % 1010 -> 1000
assert(e == 8)
f = 12
f |= 3            % -> 1111
assert(f == 15)
g = 12
g ~= 10           % xor -> 0110
assert(g == 6)

% maximum and minimum
h = 4
h ^^= 9
assert(h == 9)
h ^^= 2
assert(h == 9)
m = 4
m __= 9
assert(m == 4)
m __= -2
assert(m == -2)

% each returns the new value
x = 0
y = (x += 1)
assert(y == 1 && x == 1)
y = (x *= 5)
assert(y == 5)
y = (x -= 7)
assert(y == -2)
y = (x ^^= 3)
assert(y == 3)
y = (x __= 1)
assert(y == 1)
y = (x |= 6)
assert(y == 7)

% against a reference computed by the plain operators
for v = 1..20
    r1 = v
    r1 &= 13
    r2 = v
    r2 |= 5
    r3 = v
    r3 ~= 9
    % bit by bit
    ra = 0
    ro = 0
    rx = 0
    bit = 1
    for k = 0..5
        pv = mod(int(v / bit), 2)
        pa = mod(int(13 / bit), 2)
        po = mod(int(5 / bit), 2)
        px = mod(int(9 / bit), 2)
        ra += bit * (pv * pa)
        ro += bit * ((pv + po) > 0)
        rx += bit * mod(pv + px, 2)
        bit *= 2
    endfor
    assert(r1 == ra && r2 == ro && r3 == rx)
endfor
print "compound_scalar: ok"
