% Sum of 2^26 floats with a kernel output: every thread adds one element.
function [y : scalar] = __kernel__ ksum(x : vec, pos : int)
    y += x[pos]
endfunction
function [] = __kernel__ fill(x : vec, pos : int)
    x[pos] = mod(pos, 8) == 0   % 2^23 ones: every partial sum is exact in float
endfunction
n = 2^26
x = zeros(n)
parallel_do(n, x, fill)
s = 0
for r = 1..7
    tic()
    s = parallel_do(n, x, ksum)
    toc("sum 2^26")
endfor
print "checksum ", s
