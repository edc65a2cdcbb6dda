% EXPECT: 1 ^tests/errors/stats_circshift_shift\.q:3:5: runtime error: circshift: shift 0.5 is not an integer
% shifts are whole numbers
c = circshift([1, 2, 3], [0, 0.5])
