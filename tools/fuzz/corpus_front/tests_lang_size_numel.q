% size, numel, zeros, ones and their shapes.

m = zeros(3, 4)
s = size(m)
assert(numel(s) == 2 && s[0] == 3 && s[1] == 4)
assert(size(m, 0) == 3 && size(m, 1) == 4)
assert(size(m, 2) == 1)          % past the rank
assert(size(m, 5) == 1)
assert(numel(m) == 12)

v = zeros(5)
assert(numel(size(v)) == 1)      % size of a vec is [n]
assert(size(v)[0] == 5)
assert(size(v, 0) == 5 && size(v, 1) == 1)

c = ones(2, 3, 4)
assert(numel(c) == 24)
assert(sum(c) == 24)
sc = size(c, 0..1)
assert(numel(sc) == 2 && sc[0] == 2 && sc[1] == 3)
sc3 = size(c, 0..2)
assert(sc3[2] == 4)

% destructuring the size
[h, w] = size(m)
assert(h == 3 && w == 4)
[a, b, d] = size(c)
assert(a == 2 && b == 3 && d == 4)

% zeros/ones take a size vector too
z = zeros([2, 5])
assert(size(z, 0) == 2 && size(z, 1) == 5)
z2 = zeros(size(c))
assert(size(z2, 2) == 4 && numel(z2) == 24)
o = ones(size(m))
for i = 0..2
    for j = 0..3
        assert(o[i, j] == 1 && z2[1, 2, j] == 0)
    endfor
endfor

% int constructors
iv = vec[int](4)
assert(numel(iv) == 4 && iv[3] == 0)
ic = cube[int](2, 3, 4)
assert(numel(ic) == 24 && size(ic, 2) == 4)
ic[1, 2, 3] = 7
assert(ic[1, 2, 3] == 7)

% uninit gives the right shape (contents unspecified)
u = uninit(3, 2)
assert(size(u, 0) == 3 && size(u, 1) == 2)

% an empty vector
assert(numel(zeros(0)) == 0)
print "size_numel: ok"
