% EXPECT: 1 ^tests/errors/did_you_mean_case\.q:3:9: error: unknown name 'Pi'; did you mean 'pi'\?$
% "did you mean": a constant written with another case
area = (Pi * 2^2)
