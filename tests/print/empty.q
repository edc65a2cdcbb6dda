% empty arrays print as []
print []
print zeros(0)
print 5..4
x = [1, 2, 3]
print x[2..1]
