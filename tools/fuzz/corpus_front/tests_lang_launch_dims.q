% Launch dimensions against the declared types of pos/blkpos/blkdim (docs/language.md,
% "Kernels"): a launch of more dimensions is an error (tests/errors/launch_dims_*.q); fewer
% are padded, and trailing dimensions of 1 do not count.
function [] = __kernel__ fill3(y : mat, pos : ivec3)
    y[pos[0], pos[1]] = 10*pos[0] + pos[1] + pos[2]
endfunction
function [] = __kernel__ fill1(y : vec, pos : int)
    y[pos] = pos
endfunction

y = ones(3, 4) * -1
parallel_do(size(y), y, fill3)              % 2-D launch, 3-component pos: pos[2] is 0
for i = 0..2
    for j = 0..3
        assert(y[i, j] == 10*i + j)
    endfor
endfor
z = ones(5) * -1
parallel_do([5, 1], z, fill1)               % 5 x 1 is a 1-D launch for `pos : int`
for i = 0..4
    assert(z[i] == i)
endfor
print "launch_dims: ok"
