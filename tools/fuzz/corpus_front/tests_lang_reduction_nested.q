% Reductions (seed 001: `reduction x -> real(ifft3(x)) -> irealfft3(x)`): a pattern with
% nested calls replaces the calls of that shape written after it; calls of another shape,
% and calls before the definition, are left alone.

function y = twice(x)
    y = 2 * x
endfunction

function y = mirrored(x)
    y = -x
endfunction

function y = fast_path(x)
    y = 1000 + x
endfunction

a = abs(twice(-3))              % before the definition: abs(twice(-3)) = 6
reduction x -> abs(twice(x)) -> fast_path(x)
b = abs(twice(-3))              % replaced: fast_path(-3) = 997
c = abs(mirrored(-3))           % another shape: 3
d = abs(-7)                     % a plain call of abs: 7
assert(a == 6 && b == 997 && c == 3 && d == 7)

% the pattern's parameter binds the whole argument expression
e = abs(twice(2 + 3))
assert(e == 1005)

% the run-time form: the argument fits the parameter type, or the built-in is called
function y = my_sum(x)
    y = -1
endfunction
reduction (x : vec) -> sum(x) = my_sum(x)
assert(sum([1, 2, 3]) == -1)
assert(sum(4) == 4)
print "reduction_nested: ok"
