k = (a) -> (x = a; y = (2 +; z = 3)
q = 1
% Canary: this line is reached, so parsing went on after the errors above.
reached = *
