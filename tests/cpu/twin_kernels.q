% two kernels written alike under two names (and one lambda): one compiled object serves
% all three (tests/run.sh counts the cache's objects); each computes its own launch
function [] = __kernel__ scale_a(x : vec, y : vec, pos : int)
    y[pos] = 2 * x[pos] + 1
endfunction
function [] = __kernel__ scale_b(x : vec, y : vec, pos : int)
    y[pos] = 2 * x[pos] + 1
endfunction

x = linspace(0, 1, 100)
ya = zeros(100)
yb = zeros(100)
parallel_do(100, x, ya, scale_a)
parallel_do(100, x, yb, scale_b)
for i = 0..99
    assert(ya[i] == 2 * x[i] + 1)
    assert(yb[i] == ya[i])
endfor
