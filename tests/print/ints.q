% print of int values: plain decimal integers
print 0
print 42
print -7
print 2147483647
print 3 + 4
print 6 * 7
print 10 - 25
print int(3.99)
print int(-3.99)
a = -7
print a mod 3
print 123456789
