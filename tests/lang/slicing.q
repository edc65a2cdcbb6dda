% Slicing: x[:, 2], x[0..3], y[i, 0..3], ranges and index vectors, dropped dimensions.

R = 4
C = 5
m = zeros(R, C)
for i = 0..R-1
    for j = 0..C-1
        m[i, j] = 10 * i + j
    endfor
endfor

% a column: an R x 1 matrix (Quasar's rule; a vec is a 1 x N row)
col = m[:, 2]
assert(numel(col) == R)
assert(numel(size(col)) == 2 && size(col, 0) == R && size(col, 1) == 1)
for i = 0..R-1
    assert(col[i] == 10 * i + 2)
endfor

% a row
row = m[1, :]
assert(numel(row) == C)
for j = 0..C-1
    assert(row[j] == 10 + j)
endfor

% part of a row: y[i, 0..3]
part = m[3, 0..3]
assert(numel(part) == 4)
for j = 0..3
    assert(part[j] == 30 + j)
endfor

% a block keeps two dimensions
blk = m[1..2, 3..4]
assert(size(blk, 0) == 2 && size(blk, 1) == 2)
for i = 0..1
    for j = 0..1
        assert(blk[i, j] == 10 * (i + 1) + j + 3)
    endfor
endfor

% a vector slice x[0..3] and a stepped range
x = 100..-1..90
s = x[0..3]
assert(numel(s) == 4)
for k = 0..3
    assert(s[k] == 100 - k)
endfor
ev = x[0..2..10]
assert(numel(ev) == 6)
for k = 0..5
    assert(ev[k] == 100 - 2 * k)
endfor
rev = x[10..-1..0]
for k = 0..10
    assert(rev[k] == 90 + k)
endfor

% an index vector gathers along a dimension
g = m[[0, 2], 1]
assert(numel(g) == 2 && g[0] == 1 && g[1] == 21)
g2 = x[[3, 0, 3]]
assert(g2[0] == 97 && g2[1] == 100 && g2[2] == 97)

% the sum of a slice
assert(sum(m[2, :]) == 5 * 20 + (0 + 1 + 2 + 3 + 4))

% cube slices: c[i, j, :] and c[:, :, k]
c = zeros(2, 3, 4)
for i = 0..1
    for j = 0..2
        for k = 0..3
            c[i, j, k] = 100 * i + 10 * j + k
        endfor
    endfor
endfor
t = c[1, 2, :]
assert(numel(t) == 4 && t[3] == 123)
p = c[:, :, 1]
assert(size(p, 0) == 2 && size(p, 1) == 3)
assert(p[1, 1] == 111)
q = c[1, 0..1, 2..3]
assert(size(q, 0) == 2 && size(q, 1) == 2 && q[1, 0] == 112)

% a slice is a copy: changing it leaves the source alone
col[0] = -1
assert(m[0, 2] == 2)
print "slicing: ok"
