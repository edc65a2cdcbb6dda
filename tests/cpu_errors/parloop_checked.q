% EXPECT: 1 ^tests/cpu_errors/parloop_checked\.q:12:19: runtime error: index \[[0-9]+,[0-9]+\] out of range for array 'x' of size \[30,40\]
% A parallel loop whose read leaves the array (m + 1 reaches 30 in its last row): as the
% serial loop, it stops with the interpreter's index error, although the rows inside x run
% without tests (captured arrays are 'checked in generated kernels)

x = zeros(30, 40)
y = zeros(30, 40)
m = 0
n = 0
for m = 3..29
    for n = 0..39
        y[m, n] = x[m + 1, n] + 1
    endfor
endfor
print "not reached"
