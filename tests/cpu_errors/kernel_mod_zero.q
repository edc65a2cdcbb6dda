% EXPECT: 1 ^tests/cpu_errors/kernel_mod_zero\.q:5:(14|16|5): runtime error: .*(zero|division)
% mod of ints by zero inside a kernel is an error, as on the host
function [] = __kernel__ modk(y : vec[int], d : int, pos : int)
    k = pos
    y[pos] = k mod (d - pos)
endfunction

y = vec[int](100)
parallel_do(100, y, 50, modk)
print "not reached"
