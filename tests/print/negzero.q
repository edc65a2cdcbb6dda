% negative zero prints as 0 (scalar, and as an element of a vector)
a = -0.0
print a
print 0.0 * -1
print -0
print [-0.0, 1.5]
