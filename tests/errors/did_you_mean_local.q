% EXPECT: 1 ^tests/errors/did_you_mean_local\.q:5:9: error: unknown name 'countr'; did you mean 'counter'\?$
% "did you mean": the nearest name in scope (one letter left out)
counter = 1
for i = 1..3
    y = countr + i
endfor
