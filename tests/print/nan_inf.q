% division by zero is real division: Inf, -Inf; 0/0 is NaN whatever its sign bit
print 1 / 0
print -1 / 0
print 0 / 0
print -(0 / 0)
z = 0.0
print [1 / z, -1 / z, 2.5]
