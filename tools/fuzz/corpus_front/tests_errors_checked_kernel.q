% EXPECT: 1 ^tests/errors/checked_kernel\.q:5:(16|19): runtime error: .*(src.*shift_kernel|shift_kernel.*src)
% 'checked: an index outside the array is an error in a kernel too; the message names
% the kernel and the array
function [] = __kernel__ shift_kernel(src : vec'checked, dst : vec, pos : int)
    dst[pos] = src[pos + 1]
endfunction

x = zeros(8)
y = zeros(8)
parallel_do(8, x, y, shift_kernel)
