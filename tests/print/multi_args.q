% print a, b, ...: the values concatenated, then one newline
print 1, 2, 3
print "a", 1.5, "b", [1, 2]
print "sum=", 2 + 3
print "z=", complex(1, -1), "; ok=", 1 < 2
x = 0.25
print "x is ", x, " and 2x is ", 2 * x
