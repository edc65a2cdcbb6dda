% The function header lacks '=' (seed 001's copy_kernel); its body still parses.
function [] __kernel__ copy_kernel(x:vec'const, y:vec'nocopy, pos:int)
    y[pos] = x[pos]
endfunction
x = ones(2^16)
% Canary: this line is reached, so parsing went on after the errors above.
reached = *
