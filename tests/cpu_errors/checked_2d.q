% EXPECT: 1 ^tests/cpu_errors/checked_2d\.q:6:(16|19): runtime error: index \[[0-9]+,[0-9]+\] out of range for array 'src' of size \[40,50\] in kernel 'shift2'
% 'checked in compiled code: the first thread that reads outside stops the launch; the
% message names the kernel, the array, the index and the size (which thread is reported
% first may differ between back ends, so the index is not checked)
function [] = __kernel__ shift2(src : mat'checked, dst : mat, pos : ivec2)
    dst[pos] = src[pos[0] + 1, pos[1]]
endfunction

x = zeros(40, 50)
y = zeros(40, 50)
parallel_do(size(x), x, y, shift2)
print "not reached"
