% EXPECT: 1 ^tests/errors/multi_assign_function\.q:7:1: runtime error: cannot assign a function to 2 variables
% [a, b] = a function value: an error (its scratch leaked under make asan: found by
% tests/fuzz_run.sh on a cut program).
function y = f(x)
    y = x
end
[a, b] = f
