% EXPECT: 1 ^tests/errors/did_you_mean_function\.q:7:13: error: unknown name 'sqaure'; did you mean 'square'\?$
% "did you mean": a function of the program, two letters swapped, inside another function
function y = square(x)
    y = x * x
endfunction
function z = twice(x)
    z = 2 * sqaure(x)
endfunction
print twice(3)
