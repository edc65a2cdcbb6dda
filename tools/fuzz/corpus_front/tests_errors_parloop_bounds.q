% EXPECT: 1 ^tests/errors/parloop_bounds\.q:[0-9]+:[0-9]+: runtime error: .*(out of|outside|bounds)
% A loop that runs as a kernel keeps the host's bounds errors: y has 10 elements.
y = zeros(10)
for i = 0..10
    y[i] = i
endfor
print y
