% Lambdas (x -> e, (a, b) -> (s1; s2)) and closures over enclosing variables.

sq = x -> x^2
assert(sq(3) == 9)
assert(sq(-1.5) == 2.25)

add2 = (a, b) -> (c = a + b; c * 2)
assert(add2(1, 2) == 6)
assert(add2(0.5, 0.25) == 1.5)

typed = (x : scalar, n : int) -> x * n
assert(typed(1.5, 4) == 6)

% a lambda over arrays, when its body is element-wise
esq = x -> x.^2
v = esq([1, 2, 3])
assert(v[0] == 1 && v[1] == 4 && v[2] == 9)

% functions as values: passed, returned, stored
function y = apply_twice(f, x)
    y = f(f(x))
endfunction
assert(apply_twice(sq, 3) == 81)
assert(apply_twice(x -> x + 10, 1) == 21)

function f = make_adder(n)
    f = x -> x + n
endfunction
add5 = make_adder(5)
add7 = make_adder(7)
assert(add5(1) == 6)
assert(add7(1) == 8)
assert(add5(add7(0)) == 12)

% composition
compose = (f, g) -> (x -> f(g(x)))
h = compose(sq, add5)
assert(h(1) == 36)

% a closure over an array sees later changes to that array (arrays are shared)
data = [1, 2, 3]
get = i -> data[i]
data[1] = 20
assert(get(1) == 20)

% a closure can write through a captured array
acc = zeros(1)
bump = x -> (acc[0] += x; acc[0])
bump(2)
r = bump(3)
assert(r == 5 && acc[0] == 5)

% a lambda taking the degree-to-radian conversion of the seeds
degrees_to_radians = theta -> theta * pi / 180
assert(abs(degrees_to_radians(180) - pi) < 1e-6)
assert(abs(degrees_to_radians(90) - pi / 2) < 1e-6)

% lambda bodies may span lines with `_`
long = (a, b) -> _
    a * 10 + b
assert(long(4, 2) == 42)
print "closures_lambdas: ok"
