% EXPECT: 1 ^tests/errors/eye_negative\.q:3:[0-9]+: runtime error: eye: negative size -2 x -2$
% eye of a negative size
I = eye(-2)
