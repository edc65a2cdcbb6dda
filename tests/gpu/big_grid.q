% Only for --target cuda (tests/gpu.sh runs this folder): a 2-D launch of 2^27 x 1 threads
% puts 2^27 on CUDA y, whose grid the device limits to 65535 blocks; the launcher runs it in
% chunks of blocks (docs/cuda.md, Launch) instead of falling back to the CPU (gpu.sh checks
% --verbose for a fallback). y starts at zero and is uploaded (the kernel reads it), so an
% element no chunk wrote stays 0. Reference: the same formula in a flat kernel, and host
% reads of sampled elements.
function [] = __kernel__ k_rows(y : mat, pos : ivec2)
    y[pos] = y[pos] + 1 + mod(pos[0], 1000) + pos[1]
endfunction
function bad = __kernel__ k_check(y : mat, pos : ivec2)
    bad += y[pos] != 1 + mod(pos[0], 1000) ? 1 : 0
endfunction
n = 134217728   % 2^27, an int
y = zeros(n, 1)
parallel_do(size(y), y, k_rows)
bad = parallel_do(size(y), y, k_check)
assert(bad == 0)
for i = 0..9973..n-1
    assert(y[i, 0] == 1 + mod(i, 1000))
endfor
assert(y[n - 1, 0] == 1 + mod(n - 1, 1000))
print "big_grid: ok"
