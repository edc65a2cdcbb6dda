% An unclosed '(' is reported at the end of its line; the next line parses again.
x = max(a, b
y = 3
% Canary: this line is reached, so parsing went on after the errors above.
reached = *
