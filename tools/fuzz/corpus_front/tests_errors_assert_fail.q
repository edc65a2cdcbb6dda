% EXPECT: 1 ^tests/errors/assert_fail\.q:5:(1|7|8): runtime error: .*assert
x = 2
print "before"
% the next line fails
assert(x + 1 == 4)
print "not reached"
