% Built-in math functions against closed forms.

assert(sqrt(16) == 4)
assert(sqrt(2) * sqrt(2) - 2 < 1e-6)
assert(exp(0) == 1)
assert(abs(log(exp(2)) - 2) < 1e-5)
assert(abs(exp(1) - 2.7182818) < 1e-5)
assert(log2(8) == 3)
assert(log2(1024) == 10)
assert(abs(log10(1000) - 3) < 1e-6)
assert(abs(pi - 3.1415927) < 1e-6)
assert(abs(sin(pi / 2) - 1) < 1e-6)
assert(abs(cos(pi)) - 1 < 1e-6)
assert(abs(sin(0)) == 0 && cos(0) == 1)
assert(abs(-3) == 3 && abs(2.5) == 2.5)

% max, min of two values and of a vector
assert(max(3, 9) == 9 && min(3, 9) == 3)
assert(max(-1.5, -2) == -1.5)
v = [4, -2, 9, 0, 9, -7]
assert(max(v) == 9 && min(v) == -7)

% sum, prod, mean
assert(sum([1, 2, 3, 4]) == 10)
assert(prod([1, 2, 3, 4]) == 24)
assert(mean([1, 2, 3, 4]) == 2.5)
m = [[1, 2], [3, 4]]
assert(sum(m) == 10)

% ceil, floor, round
assert(round(2.4) == 2 && round(2.6) == 3 && round(-2.6) == -3)

% clamp(x, lo, hi)
assert(clamp(5, 0, 3) == 3 && clamp(-1, 0, 3) == 0 && clamp(2, 0, 3) == 2)

% xor and and on ints (used by the bitonic sort of seed 003)
for a = 0..15
    for b = 0..15
        x = xor(a, b)
        y = and(a, b)
        % bit by bit
        rx = 0
        ry = 0
        bit = 1
        for k = 0..3
            pa = mod(int(a / bit), 2)
            pb = mod(int(b / bit), 2)
            rx += bit * mod(pa + pb, 2)
            ry += bit * pa * pb
            bit *= 2
        endfor
        assert(x == rx && y == ry)
    endfor
endfor

% prevpow2 / nextpow2-style helpers used by the seeds
assert(prevpow2(40) == 32 && prevpow2(32) == 32 && prevpow2(1) == 1)
assert(2^ceil(log2(20)) == 32)

% linspace-free: the sum of squares closed form
n = 50
assert(sum((1..n).^2) == n * (n + 1) * (2 * n + 1) / 6)
print "math_builtins: ok"
