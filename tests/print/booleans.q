% comparisons and logic give booleans: true / false
print 1 == 1
print 2 < 1
print !(3 > 2)
print 1 < 2 && 2 < 3
print 1 > 2 || 2 > 3
print "abc" == "abc"
print [1, 2, 3] == [1, 0, 3]
