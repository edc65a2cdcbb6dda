% EXPECT: 1 check_kernel_vec_param\.q:12:20: error: a vec3 given a vector of 4 elements \(in kernel 'shade'\)$
% MODE: check
% a device function's vec3 parameter given a vec4 (a kernel parameter): `oq check` finds it
% on the declared types (kernel_check.c)

function y = __device__ norm3(p : vec3)
    y = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2])
endfunction

function [] = __kernel__ shade(c : vec4, y : vec, pos : int)
    n = 1.0
    y[pos] = norm3(c) * n
endfunction
