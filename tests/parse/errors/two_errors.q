% Two independent errors: both are reported, the good lines around them parse.
a = 1
b = (a + * 2)
c = a
d = [a, b
e = c
% Canary: this line is reached, so parsing went on after the errors above.
reached = *
