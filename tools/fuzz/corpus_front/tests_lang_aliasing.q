% Arrays are shared by assignment and by argument passing; copy() makes a new array.

function [] = set_first(x, val)
    x[0] = val
endfunction

function y = replace(x)
    x = zeros(3)           % rebinding the parameter does not touch the caller's array
    x[0] = 5
    y = x
endfunction

A = [1, 2, 3]
B = A
B[0] = 5
assert(A[0] == 5)           % B aliases A

C = copy(A)
C[1] = 9
assert(A[1] == 2)           % C does not
assert(C[0] == 5)

set_first(A, -1)
assert(A[0] == -1 && B[0] == -1)

R = replace(A)
assert(A[0] == -1 && R[0] == 5)

% scalars are values
a = 3
b = a
b += 1
assert(a == 3 && b == 4)

% a matrix and a row of it: a slice is a copy
M = zeros(2, 2)
row = M[0, :]
row[0] = 7
assert(M[0, 0] == 0)

% compound assignment through an alias
D = zeros(4)
E = D
E[2] += 3
assert(D[2] == 3)
print "aliasing: ok"
