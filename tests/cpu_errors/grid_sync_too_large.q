% EXPECT: 1 ^tests/cpu_errors/grid_sync_too_large\.q:14:1: runtime error: .*syncthreads\(grid\)
% syncthreads(grid) with a local that lives across the barrier needs every thread of the
% launch at once: on the GPU every block must be resident (a cooperative launch), in the
% interpreter every thread is a fiber. A launch far beyond both is an error at the launch,
% not a hang. (Without such a local the GPU loops the resident blocks: tests/gpu/.)
function [] = __kernel__ shift_all(a : vec, b : vec, pos : int)
    v = a[pos] * 2
    syncthreads(grid)
    b[mod(pos + 1, numel(a))] = v
endfunction

a = zeros(2^22)
b = zeros(2^22)
parallel_do(numel(a), a, b, shift_all)
print "not reached"
