% Conversions between int, scalar and arrays at typed parameters and declarations.

function y = take_int(n : int)
    y = n
    y /= 2                      % y is an int: truncates
endfunction

function y = take_scalar(x : scalar)
    y = x
    y /= 2                      % y is a scalar
endfunction

function y = take_cube(c : cube)
    y = numel(c)
endfunction

function y = take_vec(v : vec)
    y = v[numel(v) - 1]
endfunction

assert(take_int(7) == 3)
assert(take_int(7.0) == 3)      % an integral scalar is accepted for an int
assert(take_scalar(7) == 3.5)   % an int becomes a scalar
assert(take_scalar(7.0) == 3.5)

% arrays of lower rank are accepted for higher-rank array types
assert(take_cube(zeros(4)) == 4)
assert(take_cube(zeros(2, 3)) == 6)
assert(take_cube(zeros(2, 3, 4)) == 24)
assert(take_vec([5, 6, 7]) == 7)
assert(take_vec(0..4) == 4)

% float() and int() on arrays
iv = int([1.9, -1.9, 2.5])
assert(iv[0] == 1 && iv[1] == -1 && iv[2] == 2)
fv = float([1, 2])
assert(fv[0] / 2 == 0.5)

% typed declarations
a : int = 5
a /= 2
assert(a == 2)
b : scalar = 5
b /= 2
assert(b == 2.5)
m : mat = zeros(2, 2)
assert(numel(m) == 4)
v : vec[int] = [1, 2, 3]
v[0] = 2.9
assert(v[0] == 2)

% an int array element stores truncated values; a scalar array keeps fractions
ia = vec[int](2)
ia[0] = -3.7
ia[1] = 3.7
assert(ia[0] == -3 && ia[1] == 3)
sa = zeros(2)
sa[0] = -3.75
assert(sa[0] == -3.75)

% uint8 arrays hold 0..255
u = vec[uint8](3)
u[0] = 200
u[1] = 55
assert(u[0] + u[1] == 255)
print "conversions: ok"
