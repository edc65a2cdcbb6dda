% Arithmetic on ints and scalars: `/` is always real division, int op int stays int for
% + - * mod, compound assignment on an int variable keeps it int.

% real division, even int / int
assert(7 / 2 == 3.5)
assert(-7 / 2 == -3.5)
assert(1 / 4 == 0.25)
assert(6 / 3 == 2)

% int() truncates toward zero
assert(int(7 / 2) == 3)
assert(int(-7 / 2) == -3)
assert(int(2.999) == 2)
assert(int(-2.999) == -2)

% int with int stays exact far beyond the 24 bits of a single-precision float
big = 16777217             % 2^24 + 1 is not a float
assert(big + 2 - big == 2)
assert(big * 3 - 3 * big == 0)
assert(big mod 10 == 7)

% mixing int and scalar gives scalar
assert(1 + 0.5 == 1.5)
assert(3 * 0.5 == 1.5)
assert(2 - 0.25 == 1.75)

% compound assignment on an int variable keeps it int (truncated toward zero)
j = 7
j /= 2
assert(j == 3)
j = -7
j /= 2
assert(j == -3)
j = 5
j *= 1.5                   % an int with a scalar operand becomes scalar (no truncation)
assert(j == 7.5)
j = 5
j += 0.5
assert(j == 5.5)

% a scalar variable stays scalar
k = 7.0
k /= 2
assert(k == 3.5)
k = 0.5
k += 1
assert(k == 1.5)

% plain assignment replaces the value (and its kind) in host code
x = 7
x = x / 2
assert(x == 3.5)

% powers
assert(2^10 == 1024)
assert(2^-1 == 0.5)
assert(4^0.5 == 2)
assert((-2)^3 == -8)

% operator precedence
assert(2 + 3 * 4 == 14)
assert((2 + 3) * 4 == 20)
assert(-2^2 == -4)
assert(2 * 3^2 == 18)
assert(10 - 4 - 3 == 3)
assert(64 / 4 / 2 == 8)

% comparisons between kinds
assert(3 == 3.0)
assert(2 < 2.5)
assert(!(2.5 < 2))
assert(3 != 4)
assert(3 <= 3 && 3 >= 3)

% unary minus and plus
a = 5
assert(-a == -5)
assert(+a == 5)
assert(- -a == 5)
print "arith_kinds: ok"
