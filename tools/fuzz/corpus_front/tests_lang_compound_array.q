% Every compound assignment operator on array elements, in host code, and that it gives
% the new value: a = [0]; b = (a[0] += 1) -> b == 1 (seed 001).

a = [0]
b = (a[0] += 1)
assert(b == 1 && a[0] == 1)

x = zeros(9)
x[0] = 10
x[0] += 5
assert(x[0] == 15)
x[1] = 10
x[1] -= 25
assert(x[1] == -15)
x[2] = 3
x[2] *= 4
assert(x[2] == 12)
x[3] = 3
x[3] /= 4
assert(x[3] == 0.75)
x[4] = 3
x[4] ^= 3
assert(x[4] == 27)
x[5] = 2
x[5] ^^= 7
assert(x[5] == 7)
x[5] ^^= 1
assert(x[5] == 7)
x[6] = 2
x[6] __= -7
assert(x[6] == -7)
x[6] __= 0
assert(x[6] == -7)

% the result of each is the element's new value
y = (x[7] += 2)
assert(y == 2)
y = (x[7] *= 3)
assert(y == 6)
y = (x[7] ^^= 10)
assert(y == 10)
y = (x[7] __= 4)
assert(y == 4)
y = (x[7] -= 1)
assert(y == 3 && x[7] == 3)

% bitwise operators on int arrays
iv = vec[int](3)
iv[0] = 12
iv[0] &= 10
assert(iv[0] == 8)
iv[1] = 12
iv[1] |= 3
assert(iv[1] == 15)
iv[2] = 12
iv[2] ~= 10
assert(iv[2] == 6)
assert((iv[2] |= 1) == 7)

% an int array keeps int elements: /= truncates
iv[0] = 7
iv[0] /= 2
assert(iv[0] == 3)

% on matrix elements and with a position vector
m = zeros(2, 3)
m[1, 2] += 4
m[[1, 2]] += 1
assert(m[1, 2] == 5)

% histogram-style counting with a computed index: y[v] += 1
data = [3, 1, 3, 0, 3, 1]
h = zeros(4)
for i = 0..numel(data)-1
    h[data[i]] += 1
endfor
assert(h[0] == 1 && h[1] == 2 && h[2] == 0 && h[3] == 3)
print "compound_array: ok"
