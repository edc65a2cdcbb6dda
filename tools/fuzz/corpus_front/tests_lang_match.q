% match ... with | pattern -> ... | _ -> ... on ints and strings.

function y = name_of(h : int)
    match h with
    | 0 -> y = "zero"
    | 1 -> y = "one"
    | 2 -> y = "two"
    | _ -> y = "many"
    endmatch
endfunction

function y = code_of(s : string)
    match s with
    | "red" -> y = 0
    | "green" -> y = 1
    | "blue" -> y = 2
    | _ -> y = -1
    end
endfunction

assert(name_of(0) == "zero")
assert(name_of(1) == "one")
assert(name_of(2) == "two")
assert(name_of(3) == "many")
assert(name_of(-1) == "many")
assert(code_of("red") == 0)
assert(code_of("blue") == 2)
assert(code_of("purple") == -1)
assert(code_of("") == -1)

% an int computed at run time, matched against each case in turn
counts = zeros(4)
for i = 0..19
    match mod(i, 5) with
    | 0 -> counts[0] += 1
    | 1 -> counts[1] += 1
    | 2 -> counts[2] += 1
    | _ -> counts[3] += 1
    endmatch
endfor
assert(counts[0] == 4 && counts[1] == 4 && counts[2] == 4 && counts[3] == 8)

% several statements in one case
function [a, b] = two_steps(k)
    a = 0
    b = 0
    match k with
    | 1 ->
        a = 10
        b = 20
    | _ ->
        a = -1
    endmatch
endfunction
[p, q] = two_steps(1)
assert(p == 10 && q == 20)
[p, q] = two_steps(2)
assert(p == -1 && q == 0)

% the scalar result of int() matches an int pattern (as in hsv2rgb of seed 001)
h = int(2.5 * 1.2)
r = 0
match h with
| 3 -> r = 1
| _ -> r = 2
endmatch
assert(r == 1)
print "match: ok"
