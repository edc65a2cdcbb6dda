% EXPECT: 1 ^tests/errors/kernel_output_assign\.q:4:5: error: kernel output 'm' is combined over all threads
% a kernel output gets every thread's value: a plain `=` would silently sum max(0, x[pos])
function [m : scalar] = __kernel__ kmax(x : vec, pos : int)
    m = max(m, x[pos])
endfunction
x = [3, 9, 2, 5]
print parallel_do(4, x, kmax)
