x = 3abc + 1
y = 1e
% Canary: this line is reached, so parsing went on after the errors above.
reached = *
