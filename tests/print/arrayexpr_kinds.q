% The kinds of host array expression results: the same on every target (ints print as
% integers, scalars with 6 digits).
x = zeros(40, 30)
for k = 0..numel(x) - 1
    x[k] = k
endfor
n = int(x)
a = n .* n * 1000 + 7
print a[1199], " ", a[5]
b = n ./ 7
print b[1199], " ", b[6]
c = (n > 600) + (x < 3)
print c[0], " ", c[1199], " ", sum(c)
d = x * 1000000 + 1
print d[1199]
print sum(n .* n), " ", sum(x .* x), " ", mean(n), " ", max(n - 5), " ", min(x / 3)
u = vec[uint8](1200)
for k = 0..1199
    u[k] = k mod 256
endfor
v = u * 3 + 1
print v[255], " ", v[1199], " ", sum(u * 2)
z = complex(x, -x)
w = z .* z
print w[3], " ", real(w[1199])
