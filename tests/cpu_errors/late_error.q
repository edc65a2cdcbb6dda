% EXPECT: 1 ^tests/cpu_errors/late_error\.q:7:[0-9]+: runtime error: index \[?10\]? out of range for array 'x' of size \[?10\]? in kernel 'bad'
% A kernel error is reported even when the host never waits for the kernel: on the GPU the
% launch is asynchronous and its error record is read at the next wait (here: more launches
% than the ring of error records holds, then the end of the program). The error named is
% the first one in launch order.
function [] = __kernel__ bad(x : vec'checked, pos : int)
    x[pos + 1] = 1
endfunction
function [] = __kernel__ good(x : vec, pos : int)
    x[pos] = 2
endfunction
x = zeros(10)
parallel_do(10, x, bad)
for i = 1..300
    parallel_do(10, x, good)
endfor
