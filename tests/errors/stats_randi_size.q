% EXPECT: 1 ^tests/errors/stats_randi_size\.q:3:5: runtime error: randi: negative size -2
% a negative size
r = randi(5, -2)
