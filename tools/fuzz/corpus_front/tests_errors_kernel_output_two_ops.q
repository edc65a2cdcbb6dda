% EXPECT: 1 ^tests/errors/kernel_output_two_ops\.q:5:5: error: kernel output 's' is updated with both \+= and \^\^=
% one output, two ways of combining the threads' values: no single result means both
function s : scalar = __kernel__ k(x : vec, pos : int)
    s += x[pos]
    s ^^= x[pos]
endfunction
print parallel_do(4, [1.0, 2, 3, 4], k)
