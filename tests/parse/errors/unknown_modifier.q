function [] = __kernel__ k(x : vec'unchecked'bogus, pos : int)
    x[pos] = 0
endfunction
% Canary: this line is reached, so parsing went on after the errors above.
reached = *
