% EXPECT: 1 ^tests/errors/named_argument\.q:4:(11|12|13): error: named arguments .*not supported in calls of functions
% A type after a call argument is accepted (`f(n : int)`); `name := value` only constructs objects.
function y = f(a)
    y = f(a:=1)
end
