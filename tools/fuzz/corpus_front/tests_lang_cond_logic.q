% cond ? a : b, && and || short-circuit, ! negation.

assert((1 < 2 ? 10 : 20) == 10)
assert((1 > 2 ? 10 : 20) == 20)
x = 5
sgn = x > 0 ? 1 : x < 0 ? -1 : 0
assert(sgn == 1)
x = -3
sgn = x > 0 ? 1 : x < 0 ? -1 : 0
assert(sgn == -1)
x = 0
sgn = x > 0 ? 1 : x < 0 ? -1 : 0
assert(sgn == 0)

% only the chosen branch is evaluated: the other one would be an index error in host code
v = [1, 2]
a = numel(v) > 5 ? v[7] : 0
assert(a == 0)
b = numel(v) < 5 ? v[1] : v[9]
assert(b == 2)

% && and || do not evaluate their right side when the left decides
i = 7
assert(!(i < numel(v) && v[i] > 0))
assert(i >= numel(v) || v[i] > 0)

% truth tables
for p = 0..1
    for q = 0..1
        assert((p == 1 && q == 1) == (p * q == 1))
        assert((p == 1 || q == 1) == (p + q >= 1))
        assert(!(p == 1) == (p == 0))
    endfor
endfor

% numbers as conditions: nonzero is true
n = 0
if 2
    n += 1
endif
if 0
    n += 10
endif
if -0.5
    n += 100
endif
assert(n == 101)

% comparisons give booleans that behave as ints in arithmetic
count = (3 > 2) + (2 > 3) + (1 == 1)
assert(count == 2)
assert(true && !false)

% if / elseif / else
function r = classify(t)
    if t < 0
        r = -1
    elseif t == 0
        r = 0
    elseif t < 10
        r = 1
    else
        r = 2
    endif
endfunction
assert(classify(-4) == -1 && classify(0) == 0 && classify(3) == 1 && classify(50) == 2)
print "cond_logic: ok"
