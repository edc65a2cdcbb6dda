% Assignment to slices: a scalar broadcasts over the slice, an array fills it.

m = zeros(3, 4)
m[:, 2] = 7
for i = 0..2
    for j = 0..3
        assert(m[i, j] == (j == 2 ? 7 : 0))
    endfor
endfor

m[1, :] = [1, 2, 3, 4]
for j = 0..3
    assert(m[1, j] == j + 1)
endfor
assert(m[0, 2] == 7 && m[2, 2] == 7)

m[0..1, 0..1] = [[10, 11], [12, 13]]
assert(m[0, 0] == 10 && m[0, 1] == 11 && m[1, 0] == 12 && m[1, 1] == 13)
assert(m[2, 0] == 0)

x = zeros(8)
x[2..4] = 5
x[6..7] = [-1, -2]
want = [0, 0, 5, 5, 5, 0, -1, -2]
for k = 0..7
    assert(x[k] == want[k])
endfor

% stepped slices
y = zeros(10)
y[0..2..9] = 1
for k = 0..9
    assert(y[k] == 1 - mod(k, 2))
endfor

% an index vector as the target
z = zeros(5)
z[[4, 0]] = [40, 1]
assert(z[4] == 40 && z[0] == 1 && z[1] == 0)

% a cube plane
c = zeros(2, 2, 3)
c[:, :, 1] = [[1, 2], [3, 4]]
c[1, 1, :] = 9
assert(c[0, 1, 1] == 2 && c[1, 0, 1] == 3)
assert(c[1, 1, 0] == 9 && c[1, 1, 1] == 9 && c[1, 1, 2] == 9)
assert(c[0, 0, 0] == 0 && c[0, 0, 2] == 0)

% the element type of the target is kept: storing into an int array truncates
iv = vec[int](3)
iv[0..1] = [2.7, -2.7]
assert(iv[0] == 2 && iv[1] == -2 && iv[2] == 0)
print "slice_assign: ok"
