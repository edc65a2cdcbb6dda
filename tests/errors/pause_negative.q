% EXPECT: 1 pause: the time must be 0\.\.86400000 ms, not -5
pause(-5)
