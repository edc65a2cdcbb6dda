% pos2ind(size, pos) and ind2pos(size, index): row-major (the last index varies fastest),
% and each the inverse of the other.

sz = [3, 4, 5]
assert(pos2ind(sz, [0, 0, 0]) == 0)
assert(pos2ind(sz, [0, 0, 1]) == 1)
assert(pos2ind(sz, [0, 1, 0]) == 5)
assert(pos2ind(sz, [1, 0, 0]) == 20)
assert(pos2ind(sz, [1, 2, 3]) == 1 * 20 + 2 * 5 + 3)
p = ind2pos(sz, 33)
assert(p[0] == 1 && p[1] == 2 && p[2] == 3)

% the round trip over every element, against the closed form
k = 0
for i = 0..2
    for j = 0..3
        for l = 0..4
            assert(pos2ind(sz, [i, j, l]) == k)
            q = ind2pos(sz, k)
            assert(q[0] == i && q[1] == j && q[2] == l)
            k += 1
        endfor
    endfor
endfor

% two dimensions
assert(pos2ind([4, 7], [2, 3]) == 17)
r = ind2pos([4, 7], 17)
assert(r[0] == 2 && r[1] == 3)

% it agrees with linear indexing of an array: x[pos] == x[pos2ind(size(x), pos)]
c = reshape(0..59, [3, 4, 5])
for t = 0..59
    pos = ind2pos(size(c), t)
    assert(c[pos] == t)
    assert(c[pos[0], pos[1], pos[2]] == t)
endfor

% destructuring the position, as in the seeds' warp-shuffle example
[a, b] = ind2pos([2, 8], 13)
assert(a == 1 && b == 5)
print "pos2ind: ok"
