% EXPECT: 1 ^tests/cpu_errors/grid_sync_too_large\.q:13:1: runtime error: .*syncthreads\(grid\)
% syncthreads(grid) needs every thread of the launch at once: on the GPU every block must be
% resident (a cooperative launch), in the interpreter every thread is a fiber. A launch far
% beyond both is an error at the launch, not a hang.
function [] = __kernel__ shift_all(a : vec, b : vec, pos : int)
    b[pos] = a[pos]
    syncthreads(grid)
    a[mod(pos + 1, numel(a))] = b[pos]
endfunction

a = zeros(2^22)
b = zeros(2^22)
parallel_do(numel(a), a, b, shift_all)
print "not reached"
