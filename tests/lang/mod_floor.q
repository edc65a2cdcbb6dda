% mod has the sign of the dividend (C's % and fmod); int() truncates toward zero;
% floor/ceil round down/up; frac(x) = x - floor(x).

% mod on ints, against the closed form a - b*int(a/b)
for a = -9..9
    for b = [-4, -3, 3, 4, 7]
        m = mod(a, b)
        assert(m == a - b * int(a / b))
        assert(m == a mod b)
        assert(abs(m) < abs(b))
        assert(m == 0 || (m > 0) == (a > 0))   % the sign of the dividend
    endfor
endfor
assert(mod(7, 3) == 1)
assert(mod(-7, 3) == -1)
assert(mod(7, -3) == 1)
assert(mod(-7, -3) == -1)
assert(mod(0, 5) == 0)

% mod on scalars
assert(mod(7.5, 2) == 1.5)
assert(mod(-7.5, 2) == -1.5)
assert(mod(7.5, -2) == 1.5)
assert(mod(5.25, 0.5) == 0.25)
assert(abs(mod(-1, 0.75) - (-0.25)) < 1e-6)

% int
assert(int(2.7) == 2)
assert(int(-2.7) == -2)
assert(int(0.2) == 0)
assert(int(-0.2) == 0)
assert(int(5) == 5)

% floor and ceil
assert(floor(2.5) == 2)
assert(floor(-2.5) == -3)
assert(floor(-3) == -3)
assert(ceil(2.5) == 3)
assert(ceil(-2.5) == -2)
assert(ceil(4) == 4)
assert(floor(-0.5) == -1)

% frac(x) = x - floor(x), always in [0, 1)
assert(frac(2.25) == 0.25)
assert(frac(-2.25) == 0.75)
assert(frac(3) == 0)
assert(frac(-3) == 0)
for t = -20..20
    x = t * 0.375
    f = frac(x)
    assert(f >= 0 && f < 1)
    assert(f == x - floor(x))
endfor

% element-wise on vectors
v = [-2.5, -0.5, 0.5, 2.5]
fl = floor(v)
ce = ceil(v)
fr = frac(v)
md = mod([-7, -1, 1, 7], 3)
want_fl = [-3, -1, 0, 2]
want_ce = [-2, 0, 1, 3]
want_fr = [0.5, 0.5, 0.5, 0.5]
want_md = [-1, -1, 1, 1]
for i = 0..3
    assert(fl[i] == want_fl[i])
    assert(ce[i] == want_ce[i])
    assert(fr[i] == want_fr[i])
    assert(md[i] == want_md[i])
endfor
print "mod_floor: ok"
