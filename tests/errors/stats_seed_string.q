% EXPECT: 1 ^tests/errors/stats_seed_string\.q:3:1: runtime error: seed: the seed must be an integer, got string
% seed takes an integer
seed("abc")
