% EXPECT: 1 :9:24: runtime error: type mismatch: argument 2 \('h'\) of the call to 'denoise' expects int, got string
% A value whose type a call argument's annotation cannot take is an error naming the
% argument and both types, where the call runs (docs/parser.md).
function y = denoise(img, half_search)
    y = img * half_search
endfunction

h = "five"
y = denoise(ones(3), h : int)
