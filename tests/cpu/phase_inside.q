% Barrier kernels read and write arguments at pos + c; the CPU runs a block whose first and
% last positions are inside every such argument without bounds tests, and the others with
% them. Blocks that straddle an edge (launches not a multiple of the block, an argument
% smaller than the launch, offsets that leave it) must still read zeros outside ('safe, the
% default) and skip stores outside. Checked against host loops; outputs poisoned first.

% each thread reads its right neighbour through shared memory and x[pos + [0, 1]] directly
function [] = __kernel__ shift(x : mat, y : mat, z : mat, pos : ivec2, blkpos : ivec2, blkdim : ivec2)
    s = shared(blkdim[0], blkdim[1])
    s[blkpos] = x[pos]
    syncthreads
    right = x[pos + [0, 1]]
    y[pos] = s[blkpos] * 10 + right
    z[pos] = blkdim[0] * blkdim[1]
endfunction

function [] = check(n0, n1, x0, x1)
    x = zeros(x0, x1)
    for i = 0..x0-1
        for j = 0..x1-1
            x[i, j] = i * 100 + j + 1
        endfor
    endfor
    y = ones(n0, n1) * -7
    z = ones(n0, n1) * -7
    parallel_do([[n0, n1], [4, 8]], x, y, z, shift)
    for i = 0..n0-1
        for j = 0..n1-1
            a = 0
            if i < x0 && j < x1
                a = x[i, j]
            endif
            b = 0
            if i < x0 && j + 1 < x1
                b = x[i, j + 1]
            endif
            assert(y[i, j] == a * 10 + b)
            assert(z[i, j] == 32)
        endfor
    endfor
endfunction

check(16, 32, 16, 32)   % every block inside x, but the last column's neighbour
check(18, 35, 18, 35)   % partial blocks at both edges
check(16, 32, 10, 20)   % x smaller than the launch: blocks outside it read zeros
check(16, 32, 20, 40)   % x larger than the launch
print "phase_inside: ok"
