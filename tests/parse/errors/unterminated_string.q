print "hello
y = 1
% Canary: this line is reached, so parsing went on after the errors above.
reached = *
