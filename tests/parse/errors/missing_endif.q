% The if is never closed; endfunction closes the function and the if is reported.
function y = clamp01(x)
    y = x
    if y > 1
        y = 1

endfunction
y = clamp01(3)
% Canary: this line is reached, so parsing went on after the errors above.
reached = *
