% --explain for fused host array statements: which consecutive statements fuse (the first
% one's result never exists) and why the near misses do not.
x = rand(64, 64)
y = rand(64, 64)
t = x .* y
u = t + 0.5 * cos(x)
v = u - y
d = x - y
s = mean(d .^ 2)
r = x .* 2         % read twice below: kept
q = r + r
function out = f(a)
    out = a .* 2   % the output: kept
    b = out + 1
    print b
endfunction
for it = 1..3
    g = x .* it    % read after the loop: kept
    h = g + 1
endfor
g2 = g .* 2        % dies at the next statement's kill: fused
h2 = g2 + h
g2 = h2
c = x > 0.5 ? x : 0.1 * x
m = sum(c .* y, 1)
k = max(abs(x - y), [], 0)
z = complex(x, y)
e = sum(z .* z)
print v, s, q, f(x), m, k, e, g2
