% EXPECT: 1 ^tests/cpu_errors/checked_unchecked_device\.q:5:(9|10): runtime error: index \[[0-9]+\] out of range for array 'v' of size \[8\] in kernel 'get'
% 'checked on a device function's parameter: the message names the device function, as
% the interpreter's does
function y = __device__ get(v : vec'checked, i : int)
    y = v[i + 3]
endfunction

function [] = __kernel__ use_get(x : vec, y : vec, pos : int)
    y[pos] = get(x, pos)
endfunction

x = zeros(8)
y = zeros(8)
parallel_do(8, x, y, use_get)
