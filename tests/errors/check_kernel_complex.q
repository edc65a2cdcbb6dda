% EXPECT: 1 check_kernel_complex\.q:8:16: error: operator '<' on complex numbers \(in kernel 'order'\)$
% MODE: check
% complex numbers have no order: a kernel that compares two cscalar parameters is a type
% error for `oq check` (kernel_check.c), found without running the program

function [] = __kernel__ order(a : cscalar, b : cscalar, y : vec, pos : int)
    y[pos] = 0
    if real(a) < b
        y[pos] = 1
    endif
endfunction
