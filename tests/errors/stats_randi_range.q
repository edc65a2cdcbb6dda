% EXPECT: 1 ^tests/errors/stats_randi_range\.q:3:5: runtime error: randi: empty range 3\.\.1
% randi([lo, hi]) with hi < lo
r = randi([3, 1], 2)
