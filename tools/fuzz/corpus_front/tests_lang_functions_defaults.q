% Functions with typed parameters and default values.

function y = f(a, b = 10, c : int = 2)
    y = a + b * c
endfunction

function [y : scalar] = scale(x : scalar, factor : scalar = 0.5)
    y = x * factor
endfunction

function s = greet(name : string, greeting : string = "hello ")
    s = greeting + name
endfunction

function c:scalar = comb(n, r)          % the result type written without brackets
    c = 1
    for k = 1..r
        c = c * (n - r + k) / k
    endfor
endfunction

assert(f(1) == 21)
assert(f(1, 2) == 5)
assert(f(1, 2, 3) == 7)
assert(f(0, 0.5) == 1)
assert(scale(3) == 1.5)
assert(scale(3, 2) == 6)
assert(greet("bob") == "hello bob")
assert(greet("bob", "hi ") == "hi bob")
assert(comb(5, 2) == 10)
assert(comb(10, 3) == 120)

% a default may use an earlier parameter's value
function y = window(x, lo = 0, hi = numel(x) - 1)
    y = 0
    for i = lo..hi
        y += x[i]
    endfor
endfunction
v = [1, 2, 3, 4]
assert(window(v) == 10)
assert(window(v, 2) == 7)
assert(window(v, 1, 2) == 5)

% an int parameter accepts an integral scalar and keeps int arithmetic
function y = halve(n : int)
    n /= 2
    y = n
endfunction
assert(halve(7) == 3)
assert(halve(7.0) == 3)
print "functions_defaults: ok"
