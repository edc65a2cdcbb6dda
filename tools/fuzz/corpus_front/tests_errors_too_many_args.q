% EXPECT: 1 ^tests/errors/too_many_args\.q:6:(5|6): (runtime )?error: .*argument
function y = f(a, b)
    y = a + b
endfunction

y = f(1, 2, 3)
