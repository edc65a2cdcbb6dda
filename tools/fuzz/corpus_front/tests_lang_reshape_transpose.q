% copy, reshape (row-major) and transpose.

x = 0..11
m = reshape(x, [3, 4])
assert(size(m, 0) == 3 && size(m, 1) == 4)
for i = 0..2
    for j = 0..3
        assert(m[i, j] == 4 * i + j)     % the last index varies fastest
    endfor
endfor

c = reshape(x, [2, 3, 2])
for i = 0..1
    for j = 0..2
        for k = 0..1
            assert(c[i, j, k] == 6 * i + 2 * j + k)
        endfor
    endfor
endfor

% back to a vector
v = reshape(m, [12])
assert(numel(size(v)) == 1)
for k = 0..11
    assert(v[k] == k)
endfor

t = transpose(m)
assert(size(t, 0) == 4 && size(t, 1) == 3)
for i = 0..2
    for j = 0..3
        assert(t[j, i] == m[i, j])
    endfor
endfor
tt = transpose(t)
for i = 0..2
    for j = 0..3
        assert(tt[i, j] == m[i, j])
    endfor
endfor

% copy is a deep copy
m2 = copy(m)
m2[0, 0] = 100
assert(m[0, 0] == 0 && m2[0, 0] == 100)
assert(size(m2, 0) == 3 && size(m2, 1) == 4)
print "reshape_transpose: ok"
