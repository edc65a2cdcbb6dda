% A matrix literal split over lines must break after a comma; recovery skips to its ']'.
A = [1, 2
     3, 4]
B = A
% Canary: this line is reached, so parsing went on after the errors above.
reached = *
