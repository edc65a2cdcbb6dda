% No enclosing while: the endwhile under the for is taken as the for's (wrong) end.
for i = 0..2
    x = i
endwhile
y = x
% Canary: this line is reached, so parsing went on after the errors above.
reached = *
