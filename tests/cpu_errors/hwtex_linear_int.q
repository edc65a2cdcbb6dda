% EXPECT: 1 ^tests/cpu_errors/hwtex_linear_int\.q:4:14: runtime error: 'hwtex_linear interpolates arrays of scalars, not of int
% 'hwtex_linear needs an array of scalars: an int array is an error, not a rounded read
function [] = __kernel__ interp_int(y : vec, x : vec[int]'hwtex_linear, pos : int)
    y[pos] = x[pos * 0.5]
endfunction

x = vec[int](10)
y = zeros(20)
parallel_do(20, y, x, interp_int)
print "not reached"
