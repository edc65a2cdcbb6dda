% EXPECT: 1 ^tests/cpu_errors/kernel_assert\.q:5:5: runtime error: assertion failed: (x\[pos\] )?< 900
% assert inside a kernel stops the program with the condition's text
function [] = __kernel__ check_small(x : vec, pos : int)
    v = x[pos] * 2
    assert(x[pos] < 900)
endfunction

x = zeros(1000)
for i = 0..999
    x[i] = i
endfor
parallel_do(1000, x, check_small)
print "not reached"
