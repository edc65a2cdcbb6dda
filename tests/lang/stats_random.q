% seed, rand, randn and randi: seed(n) restarts every generator, randi covers its range
% uniformly, and the moments of many draws are near their closed forms.

seed(42)
a = rand(100)
b = randn(7, 3)
c = randi(10, 50)
seed(42)
a2 = rand(100)
b2 = randn(7, 3)
c2 = randi(10, 50)
assert(all(a == a2) && all(b == b2) && all(c == c2))
seed(43)
a3 = rand(100)
assert(any(a3 != a))                              % another seed, other numbers

% randi(imax) is in 1..imax, randi([lo, hi]) in lo..hi; every value comes up
r = randi([-2, 3], 1, 6000)
assert(size(r, 0) == 1 && size(r, 1) == 6000)
counts = zeros(6)
for k = 0..5999
    v = r[0, k]
    assert(v >= -2 && v <= 3 && v == int(v))
    counts[v + 2] += 1
endfor
for k = 0..5
    assert(abs(counts[k] - 1000) < 150)          % 1000 expected, sd about 29
endfor
one = randi(4)
assert(one >= 1 && one <= 4)
z = randi([5, 5], [2, 2])
assert(all(z == 5) && size(z, 0) == 2)
assert(numel(randi(3, 0)) == 0)

% moments: uniform mean 1/2 and variance 1/12; normal mean 0 and variance 1
u = rand(20000)
g = randn(20000)
assert(abs(mean(u) - 0.5) < 0.01 && abs(var(u) - 1 / 12) < 0.005)
assert(abs(mean(g)) < 0.03 && abs(var(g) - 1) < 0.05)
assert(min(u) >= 0 && max(u) < 1)
