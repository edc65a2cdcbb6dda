% Shapes as published Quasar programs rely on them (QUASAR-NOTES.md, "What published programs
% rely on"; docs/language.md, "Shapes"): a vec used as a matrix is a 1 x N row,
% A[0..h-1, j] an h x 1 column, A[i, :] a 1 x w row. Each checked against plain loops.
import "imfilter.q"

function [] = same_shape(x, dims)
    s = size(x)
    assert(numel(s) == numel(dims))
    for k = 0..numel(dims)-1
        assert(s[k] == dims[k])
    endfor
endfunction

h = 3
w = 4
A = zeros(h, w)
for i = 0..h-1
    for j = 0..w-1
        A[i, j] = 10*i + j
    endfor
endfor

% transpose([-1,1,0]) is the 3 x 1 column
v = [-1, 1, 0]
t = transpose(v)
same_shape(t, [3, 1])
for k = 0..2
    assert(t[k, 0] == v[k])
endfor
same_shape(transpose(t), [3])

% A[0..h-1, j] is an h x 1 column, A[:, j] too; A[i, :] is a 1 x w row (a vec)
j = 2
col = A[0..h-1, j]
same_shape(col, [h, 1])
same_shape(A[:, j], [h, 1])
for i = 0..h-1
    assert(col[i, 0] == A[i, j])
endfor
row = A[1, :]
same_shape(row, [w])
assert(row[3] == A[1, 3])
same_shape(A[0..1, 1..2], [2, 2])
C = zeros(2, 3, 4)
same_shape(C[1, 0..2, 3], [3])             % 1 x 3 x 1: a row
same_shape(C[0..1, 2, 3], [2, 1])          % 2 x 1 x 1: a column
same_shape(C[:, :, 1], [2, 3])
same_shape(C[:, 1, :], [2, 1, 4])

% so repmat(A[0..h-1, j], [1, r]) is h x r: every column a copy of column j
r = 5
R = repmat(A[0..h-1, j], [1, r])
same_shape(R, [h, r])
for i = 0..h-1
    for c = 0..r-1
        assert(R[i, c] == A[i, j])
    endfor
endfor
% a vec tiled down is a stack of rows; tiled across, a longer vec
same_shape(repmat(v, [2, 1]), [2, 3])
same_shape(repmat(v, [1, 2]), [6])

% the matrix product: a vec is a row on either side
assert(v * [2, 3, 4] == -2 + 3)            % vec * vec of one length: the inner product
O = transpose(v) * v                       % 3 x 1 times 1 x 3: the outer product
same_shape(O, [3, 3])
for a = 0..2
    for b = 0..2
        assert(O[a, b] == v[a] * v[b])
    endfor
endfor
u = [2, 0, 5, 1]
Au = A * transpose(u)                      % h x w times w x 1: an h x 1 column
same_shape(Au, [h, 1])
uA = u[0..2] * A                           % 1 x h times h x w: a vec of w
same_shape(uA, [w])
for i = 0..h-1
    total = 0
    for k = 0..w-1
        total += A[i, k] * u[k]
    endfor
    assert(Au[i, 0] == total)
endfor
for k = 0..w-1
    assert(uA[k] == 2*A[0, k] + 0*A[1, k] + 5*A[2, k])
endfor

% sum and mean along a dimension keep it as 1: sum(A, 0) is 1 x w, sum(A, 1) is h x 1
same_shape(sum(A, 0), [w])
same_shape(sum(A, 1), [h, 1])
same_shape(mean(A, 1), [h, 1])
s1 = sum(A, 1)
for i = 0..h-1
    assert(s1[i, 0] == 40*i + 6)
endfor
same_shape(sum(v, 1), [1])                 % along a vec's row: one element
assert(sum(v, 1)[0] == 0)
same_shape(sum(v, 0), [3])                 % along its single row: the vec itself
cs = cumsum(v, 1)                          % cumsum(x, dim) the same way
c0 = cumsum(v, 0)
for k = 0..2
    assert(cs[k] == sum(v[0..k]))
    assert(c0[k] == v[k])
endfor

% concatenation stacks rows: [v, v] is 2 x 3
same_shape([v, v], [2, 3])
same_shape([[1, 2], [3, 4], [5, 6]], [3, 2])

% imfilter with a vec mask filters along each row; a transposed one along each column
x = zeros(5, 6)
x[2, 3] = 4
byrow = imfilter(x, [1, 2, 1] / 4)
bycol = imfilter(x, transpose([1, 2, 1] / 4))
for i = 0..4
    for j = 0..5
        assert(byrow[i, j] == (i == 2 ? [0, 0, 1, 2, 1, 0][j] : 0))
        assert(bycol[i, j] == (j == 3 ? [0, 1, 2, 1, 0][i] : 0))
    endfor
endfor
print "published_shapes: ok"
