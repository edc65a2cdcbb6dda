% A kernel with two outputs returns both: [s, n] = parallel_do(...).

function [s : scalar, n : int] = __kernel__ sum_and_count(x : vec, pos : int)
    if x[pos] > 0
        s += x[pos]
        n += 1
    endif
endfunction

x = [3, -1, 4, -1, 5, -9, 2, 6]
[s, n] = parallel_do(numel(x), x, sum_and_count)
rs = 0
rn = 0
for i = 0..numel(x)-1
    if x[i] > 0
        rs += x[i]
        rn += 1
    endif
endfor
assert(s == rs && n == rn)
print "kernel_outputs_multi: ok"
