% ints and integral scalars print alike; real division gives scalars
print 3
print 3.0
print float(3)
print 7 / 2
print int(7 / 2)
print 10 / 4
print 2^10
print 9 / 3
j = 7
j /= 2
print j
k = 7.0
k /= 2
print k
