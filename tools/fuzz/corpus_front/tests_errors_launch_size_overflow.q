% EXPECT: 1 ^tests/errors/launch_size_overflow\.q:7:1: runtime error: parallel_do: the launch has more than 2\^63 positions
% issue 23, finding 4: 2^32 x 2^32 positions overflow an int64; the product wrapped to 0
% and the launch ran no thread at all, silently.
function [] = __kernel__ k(y : vec, pos : ivec2)
  y[0] = 1
end
parallel_do([2^32, 2^32], zeros(1), k)
