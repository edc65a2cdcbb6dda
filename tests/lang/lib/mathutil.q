% A module for tests/lang/import_module.q (not a test by itself).

function y = cube_of(x)
    y = x * x * x
endfunction

function [] = __kernel__ square_kernel(x : vec, y : vec, pos : int)
    y[pos] = x[pos] * x[pos]
endfunction
