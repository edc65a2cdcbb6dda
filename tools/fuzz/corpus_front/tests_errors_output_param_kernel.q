% EXPECT: 1 ^tests/errors/output_param_kernel\.q:3:10: error: output 'y' of a __device__ function has the name of a parameter$
% a device function's output is its return value: it cannot also be a parameter
function y = __device__ f(y : scalar)
    y = y + 1
endfunction
print f(1)
