% EXPECT: 1 :8:22: error: type mismatch: the argument is a string, but its annotation says int
% A type written after a call argument (published code: `denoise(img, half_search : int)`)
% that a literal cannot match is a syntax-time error at the argument (docs/parser.md).
function y = denoise(img, half_search)
    y = img * half_search
endfunction

y = denoise(ones(3), "five" : int)
