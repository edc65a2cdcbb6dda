% EXPECT: 1 ^tests/errors/int_mod_zero_call\.q:4:(5|8|9|12): runtime error: .*(zero|division)
a = -3
b = 0
c = mod(a, b)
