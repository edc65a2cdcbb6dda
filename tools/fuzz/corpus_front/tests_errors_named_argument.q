% EXPECT: 1 ^tests/errors/named_argument\.q:4:(12|13): error: named arguments .*not supported
% A type after a call argument is accepted (`f(n : int)`); `name := value` is not.
function y = f(a)
    y = f(a:=1)
end
