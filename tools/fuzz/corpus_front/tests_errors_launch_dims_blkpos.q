% EXPECT: 1 ^tests/errors/launch_dims_blkpos\.q:9:1: runtime error: parallel_do: kernel 'k' declares 'blkpos : ivec2' \(2-D\), but the launch is 3-D
% The same for `blkpos` (and `blkdim`): a vector of fewer components than the launch has
% dimensions.
function [] = __kernel__ k(y : cube, pos : ivec3, blkpos : ivec2)
    y[pos] = blkpos[0]
endfunction

y = zeros(4, 4, 2)
parallel_do(size(y), y, k)
