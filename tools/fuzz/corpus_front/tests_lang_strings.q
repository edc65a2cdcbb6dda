% Strings: + concatenation, == comparison, sprintf.

a = "ab"
b = "cd"
assert(a + b == "abcd")
assert(a + b != "abdc")
assert("" + a == a)

s = ""
for k = 0..3
    s = s + "x"
endfor
assert(s == "xxxx")

assert(sprintf("%d", 42) == "42")
assert(sprintf("%d-%d", 3, -4) == "3--4")
assert(sprintf("%s=%s", "key", "val") == "key=val")
assert(sprintf("%.2f", 3.14159) == "3.14")
assert(sprintf("%5.1f|", 2.25) == "  2.2|" || sprintf("%5.1f|", 2.25) == "  2.3|")
assert(sprintf("%03d", 7) == "007")
assert(sprintf("100%%") == "100%")
assert(sprintf("%d items", 2 + 1) == "3 items")

% building a label in a loop
label = ""
for k = 1..3
    label = label + sprintf("[%d]", k)
endfor
assert(label == "[1][2][3]")

% strings as function arguments and results
function y = wrap(t : string)
    y = "<" + t + ">"
endfunction
assert(wrap("q") == "<q>")
assert(wrap(wrap("")) == "<<>>")
print "strings: ok"
