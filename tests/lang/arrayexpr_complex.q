% Reductions of complex host array expressions: sum and mean of a complex expression are
% one kernel on cpu and cuda (two real sums, of the real and imaginary parts); real-valued
% ones (abs(z).^2) are plain real sums. Checked against plain loops within 1e-5 relative.

x = rand(48, 40)
y = rand(48, 40) - 0.5
z = complex(x, y)

sr = 0.0
si = 0.0
p2 = 0.0
for k = 0..numel(z) - 1
    sr += x[k] * 2 - y[k]
    si += y[k] * 2 + x[k]
    p2 += x[k]^2 + y[k]^2
endfor
s = sum(z .* (2 + 1i))
assert(abs(real(s) - sr) < 1e-5 * abs(sr) && abs(imag(s) - si) < 1e-5 * abs(si))
m = mean(z .* (2 + 1i))
assert(abs(real(m) - sr / numel(z)) < 1e-5 && abs(imag(m) - si / numel(z)) < 1e-5)
e = sum(abs(z).^2)
assert(abs(e - p2) < 1e-5 * p2)
q = sum(z .* conj(z))
assert(abs(real(q) - p2) < 1e-5 * p2 && abs(imag(q)) < 1e-3)

% a complex sum of a fused chain; an empty complex array sums to 0
t = z .* z
u = sum(t - 1)
ur = 0.0
ui = 0.0
for k = 0..numel(z) - 1
    ur += x[k]^2 - y[k]^2 - 1
    ui += 2 * x[k] * y[k]
endfor
assert(abs(real(u) - ur) < 1e-4 * (1 + abs(ur)) && abs(imag(u) - ui) < 1e-4 * (1 + abs(ui)))
ez = complex(zeros(0, 4), 0)
assert(sum(ez * 2) == 0)
print "ok"
