% Vector, matrix and cube literals; nested brackets and semicolons build rows.

v = [1, 2, 3]
assert(numel(v) == 3)
assert(v[0] == 1 && v[2] == 3)
assert(numel(size(v)) == 1)

m = [[1, 2, 3], [4, 5, 6]]
assert(size(m, 0) == 2 && size(m, 1) == 3)
for i = 0..1
    for j = 0..2
        assert(m[i, j] == 3 * i + j + 1)
    endfor
endfor

% semicolons separate rows: the same matrix
m2 = [1, 2, 3; 4, 5, 6]
assert(size(m2, 0) == 2 && size(m2, 1) == 3)
for i = 0..1
    for j = 0..2
        assert(m2[i, j] == m[i, j])
    endfor
endfor

% a literal may span lines inside the brackets
m3 = [[1, 2],
      [3, 4]]
assert(m3[1, 0] == 3 && m3[0, 1] == 2)

% a cube: c[i, j, k] = 4i + 2j + k + 1
c = [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]
assert(size(c, 0) == 2 && size(c, 1) == 2 && size(c, 2) == 2)
for i = 0..1
    for j = 0..1
        for k = 0..1
            assert(c[i, j, k] == 4 * i + 2 * j + k + 1)
        endfor
    endfor
endfor

% vector-valued elements become rows (as in parallel_do([dims, blkdims], ...))
a = [1, 2, 3]
r = [a, a + 10]
assert(size(r, 0) == 2 && size(r, 1) == 3)
assert(r[1, 2] == 13 && r[0, 1] == 2)

% expressions as elements
x = 2
e = [x, x^2, x + 0.5, -x]
assert(e[1] == 4 && e[2] == 2.5 && e[3] == -2)

% one element and no element
one = [7]
assert(numel(one) == 1 && one[0] == 7)
empty = []
assert(numel(empty) == 0)

% complex elements
z = [complex(1, 2), 3]
assert(real(z[0]) == 1 && imag(z[0]) == 2 && real(z[1]) == 3 && imag(z[1]) == 0)
print "literals: ok"
