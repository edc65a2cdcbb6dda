% The function header lacks '=' after its outputs (`function [] name` without '=' is
% accepted, as seed 001's copy_kernel writes it; with outputs it is not); its body still parses.
function [y] __kernel__ copy_kernel(x:vec'const, y:vec'nocopy, pos:int)
    y[pos] = x[pos]
endfunction
x = ones(2^16)
% Canary: this line is reached, so parsing went on after the errors above.
reached = *
