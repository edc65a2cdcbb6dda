% CHECK: parse-only (the seed launches `kernel`, but names its kernel copy_kernel (a bug of the document))
% From seed 001 (Quasar - CUDA Support GUIDE), lines 426-431: the 'const and 'nocopy modifiers
function [] __kernel__ copy_kernel(x:vec'const,y:vec'nocopy,pos:int)
    y[pos] = x[pos]
endfunction
x = ones(2^16)
y = zeros(size(x))
parallel_do(numel(x),x,y,kernel)
