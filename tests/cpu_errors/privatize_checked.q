% EXPECT: 1 ^tests/cpu_errors/privatize_checked\.q:6:5: runtime error: index \[(256|300)\] out of range for array 'y' of size \[256\] in kernel 'hist'
% A histogram whose bins are checked: it is privatized (per-worker copies on the CPU,
% shared memory on the GPU), and a bin outside still stops the launch with the message.
function [] = __kernel__ hist(x : vec, y : vec'checked, pos : int)
    v = x[pos]
    y[v] += 1
endfunction

x = zeros(5000)
for i = 0..4999
    x[i] = mod(i, 256)
endfor
x[4321] = 300
x[17] = 256
y = zeros(256)
parallel_do(numel(x), x, y, hist)
print "not reached"
