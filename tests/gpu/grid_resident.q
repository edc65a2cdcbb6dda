% Only for --target cuda (tests/gpu.sh runs this folder): seed 001's pattern for a kernel
% with syncthreads(grid) whose barrier sits in a loop (it cannot be split into phases, so
% all of its blocks must be resident at once): opt_block_size and opt_block_cnt choose a grid
% the device holds, and the kernel loops over the data in strides of the grid. Before
% opt_block_cnt was capped, the launch of n / 512 blocks was refused. Phase 2 reads what other
% blocks wrote in phase 1 (reversed). Reference: the same values by host vector arithmetic.
function [] = __kernel__ k_two(x : vec, y : vec, z : vec, n : int, pos : int, blkdim : int, blkcnt : int)
    for it = 0..1
        for i = pos..blkdim * blkcnt..n - 1
            if it == 0
                y[i] = 2 * x[i]
            else
                z[i] = y[n - 1 - i] + 1
            endif
        endfor
        syncthreads(grid)
    endfor
endfunction
n = 4194304   % 2^22
x = 0..n - 1
y = zeros(n)
z = zeros(n) - 1
blk = opt_block_size(k_two, [n])
grid = opt_block_cnt(k_two, blk, [n])
printf("grid_resident: %d blocks of %d threads for %d positions\n", grid[0], blk[0], n)
assert(grid[0] * blk[0] < n)
parallel_do([grid .* blk, blk], x, y, z, n, k_two)
zr = 2 * (n - 1 - x) + 1
assert(max(abs(z - zr)) == 0 && max(abs(y - 2 * x)) == 0)
print "grid_resident: ok"
