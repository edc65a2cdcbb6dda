% EXPECT: 1 ^tests/errors/type_nonintegral_int\.q:7:(5|6|7): (runtime )?error: .*(mismatch|type|int|integ)
function y = g(n : int)
    y = n + 1
endfunction

% 2.5 is not an int
y = g(2.5)
