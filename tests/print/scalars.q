% print of scalars: up to 6 significant digits (%.6g)
print 0.5
print 3.14159
print 1e6
print 1.0
print 7 / 2
print 1 / 3
print 2.5e-5
print 100000.0
print 1234567.0
print -0.25
print 0.1
print 2.0 / 3
print 1e-10
print 123.456
