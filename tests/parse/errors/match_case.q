% A statement before the first case of a match.
match c with
y = 0
| "a" -> y = 1
| _ -> y = 2
end
% Canary: this line is reached, so parsing went on after the errors above.
reached = *
