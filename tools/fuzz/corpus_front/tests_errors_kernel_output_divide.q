% EXPECT: 1 ^tests/errors/kernel_output_divide\.q:4:5: error: kernel output 's' cannot be combined over threads with /=
% /= has no identity to start each thread from and its order matters: refused
function s : scalar = __kernel__ k(x : vec, pos : int)
    s /= x[pos]
endfunction
print parallel_do(4, [1.0, 2, 3, 4], k)
