% Two independent errors: both are reported, the good lines around them parse.
a = 1
b = (a + * 2)
c = a
d = [a, b
e = c
