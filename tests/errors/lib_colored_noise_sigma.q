% EXPECT: 1 runtime error: colored_noise_gaussian: sigma must be positive, not 0
% A correlation length of 0 is an error.
import "colored_noise.q"
y = colored_noise_gaussian([8, 8], 0)
