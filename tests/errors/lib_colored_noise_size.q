% EXPECT: 1 runtime error: colored_noise: the size must have one to three elements, not \[2,2,2,2\]
% colored_noise makes vecs, matrices and cubes.
import "colored_noise.q"
y = colored_noise([2, 2, 2, 2], ones(3, 3))
