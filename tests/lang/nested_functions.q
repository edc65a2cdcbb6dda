% Functions defined inside functions, using the enclosing function's variables; recursion.

function y = outer(x)
    offset = 100
    function z = inner(t)
        z = t + offset          % reads the enclosing function's variable
    endfunction
    y = inner(x) + inner(1)
endfunction
assert(outer(5) == 206)

function y = fact(n : int)
    if n <= 1
        y = 1
    else
        y = n * fact(n - 1)
    endif
endfunction
assert(fact(1) == 1)
assert(fact(5) == 120)
assert(fact(10) == 3628800)

function y = fib(n)
    if n < 2
        y = n
        return
    endif
    y = fib(n - 1) + fib(n - 2)
endfunction
% reference: the iterative Fibonacci numbers
a = 0
b = 1
for n = 0..15
    assert(fib(n) == a)
    [a, b] = [b, a + b]
endfor

% mutual recursion
function r = is_even(n)
    r = n == 0 ? 1 : is_odd(n - 1)
endfunction
function r = is_odd(n)
    r = n == 0 ? 0 : is_even(n - 1)
endfunction
assert(is_even(10) == 1 && is_odd(7) == 1 && is_even(7) == 0)

% a nested function that writes into an array of the outer function
function v = fill(n)
    v = zeros(n)
    function [] = put(i, val)
        v[i] = val
    endfunction
    for i = 0..n-1
        put(i, i * i)
    endfor
endfunction
w = fill(5)
for i = 0..4
    assert(w[i] == i * i)
endfor

% a function that calls a function defined further down
function y = early(x)
    y = late(x) * 2
endfunction
function y = late(x)
    y = x + 1
endfunction
assert(early(3) == 8)

% `return` leaves early
function y = first_negative(x)
    y = -1
    for i = 0..numel(x)-1
        if x[i] < 0
            y = i
            return
        endif
    endfor
endfunction
assert(first_negative([3, 2, -1, -5]) == 2)
assert(first_negative([1, 2]) == -1)
print "nested_functions: ok"
