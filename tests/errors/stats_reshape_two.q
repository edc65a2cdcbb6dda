% EXPECT: 1 ^tests/errors/stats_reshape_two\.q:3:5: runtime error: reshape: only one size can be \[\] \(sizes 1 and 2 are\)
% reshape takes at most one []
r = reshape(0..9, [], [])
