% vectors: [a,b,c] without spaces
print [1, 2, 3]
print [0.5, 1, 2]
print zeros(3)
print ones(2) * 2.5
print 0..4
print 4..-2..-4
print [1.5]
print -[1, 2]
print [10, -20, 30] / 10
