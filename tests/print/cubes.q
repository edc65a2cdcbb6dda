% cubes nest like matrices: each deeper level indented by one more space
print reshape(0..7, [2, 2, 2])
c = zeros(2, 1, 3)
c[1, 0, 2] = 5
print c
print [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]
