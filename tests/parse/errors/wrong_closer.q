% A for loop closed by endwhile: the for is reported, the while is not there to close.
while x < 3
    for i = 0..2
        x += i
    endwhile
endwhile
% Canary: this line is reached, so parsing went on after the errors above.
reached = *
