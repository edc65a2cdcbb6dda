% --explain for host array expressions: each element-wise statement and reduction is
% marked; whether it runs as a kernel is decided when its operands' values are known.
x = rand(64, 64)
h = rand(64, 64)
y = x .* h + 0.5 * cos(x)
s = sum(x .* x)
m = mean((x - h).^2) + max(abs(x))
c3 = rand(64, 64, 3)
w = c3[:, :, 1] .* 2 + c3[:, :, 0]
y += 2 * w
z = x * h          % a matrix product: not element-wise
k = size(x, 0) + 1 % no operand that can be an array
