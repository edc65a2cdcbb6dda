% EXPECT: 1 ^tests/errors/int_mod_zero\.q:5:(5|7): runtime error: .*(zero|division)
a = 7
b = 0
% mod of ints by zero has no value (mod of scalars by zero is NaN, not an error)
c = a mod b
