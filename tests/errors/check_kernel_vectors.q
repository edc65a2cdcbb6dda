% EXPECT: 1 check_kernel_vectors\.q:9:11: error: vectors of lengths 3 and 4 do not combine \(in kernel 'mix'\)$
% MODE: check
% `oq check` specializes a kernel whose parameters all have types on those types, without
% running the program (kernel_check.c): a vec3 and a vec4 do not add (at run time the
% interpreter stops at the same '+': "shape mismatch"). The launch below never runs under
% check.

function [] = __kernel__ mix(a : vec3, b : vec4, y : vec, pos : int)
    c = a + b
    y[pos] = c[0]
endfunction

y = zeros(4)
parallel_do(4, [1, 2, 3], [1, 2, 3, 4], y, mix)
