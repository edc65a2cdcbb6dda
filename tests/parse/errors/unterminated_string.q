print "hello
y = 1
