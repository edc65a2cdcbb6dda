% EXPECT: 1 ^tests/errors/launch_size_nan\.q:6:1: runtime error: parallel_do's data size: the dimension (nan|NaN|-nan) is not a size
% a NaN dimension was converted to an int64 (undefined behaviour)
function [] = __kernel__ k(pos : ivec2)
end
n = 0 / 0
parallel_do([4, n], k)
