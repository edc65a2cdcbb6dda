x = 1
else
y = 2
% Canary: this line is reached, so parsing went on after the errors above.
reached = *
