% EXPECT: 1 ^tests/errors/unknown_in_function\.q:5:9: error: .*unknown.*undefined_thing
% found before the program runs, although the function is never called
function y = f(x)
    z = x + 1
    y = undefined_thing * z
endfunction
print "not reached"
