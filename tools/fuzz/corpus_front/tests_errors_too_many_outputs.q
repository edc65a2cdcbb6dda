% EXPECT: 1 ^tests/errors/too_many_outputs\.q:7:(1|11|13|16): (runtime )?error: .*(output|value|result)
function [a, b] = two()
    a = 1
    b = 2
endfunction

[x, y, z] = two()
