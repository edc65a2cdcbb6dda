% moments over a 2^27 x 1 matrix: the tiled launch runs on the GPU (its untiled grid would
% exceed the y-axis limit), and the sums of 2^27 terms stay exact (double accumulators)
function [sum1 : scalar, sum2 : scalar] = __kernel__ moments(x : mat, pos : ivec2)
    sum1 += x[pos]
    sum2 += x[pos]^2
endfunction
function [] = __kernel__ fillv(x : mat, pos : ivec2)
    x[pos] = mod(pos[0], 8) * 0.125
endfunction
n = 2^27
x = zeros(n, 1)
parallel_do(size(x), x, fillv)
[s1, s2] = parallel_do(size(x), x, moments)
e1 = n / 8 * (0 + 1 + 2 + 3 + 4 + 5 + 6 + 7) * 0.125
e2 = n / 8 * (0 + 1 + 4 + 9 + 16 + 25 + 36 + 49) * 0.015625
print s1, " ", e1, " ", s2, " ", e2
assert(abs(s1 - e1) < 1e-3 * e1 && abs(s2 - e2) < 1e-3 * e2)
print "moments: ok"
