% matrices: one row a line, continuation rows indented by one space
print [[1, 2], [3, 4]]
print zeros(2, 3)
print [[1], [2], [3]]
print [[1, 2, 3]]
print [[0.5, 1], [2, 3.25]]
print [1, 2; 3, 4]
m = zeros(3, 2)
m[1, 1] = 7
print m
