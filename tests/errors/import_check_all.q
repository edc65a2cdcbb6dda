% EXPECT: 1 ^tests/errors/lib/syntax_half\.q:5:9: error: expected an expression
% `oq check` goes on after a failed import: every missing import, the syntax errors of the
% imported files and the name errors of the program are reported together (tests/run.sh,
% cli group, counts them).
import "lib/syntax_half.q"
import "no_such_module.q"
import "no_such_module_either.q"
x = half(4) + from_missing(1)
y = from_missing(2) + also_missing
function [] = f()
    continue
end
