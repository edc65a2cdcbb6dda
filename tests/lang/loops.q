% while with break/continue, repeat-until, for with break/continue.

% while: the sum of the odd numbers below 20, skipping multiples of 3, stopping past 30
i = 0
s = 0
while true
    i += 1
    if i >= 20
        break
    endif
    if mod(i, 2) == 0 || mod(i, 3) == 0
        continue
    endif
    s += i
endwhile
ref = 0
for k = 1..19
    if mod(k, 2) == 1 && mod(k, 3) != 0
        ref += k
    endif
endfor
assert(s == ref)
assert(ref == 1 + 5 + 7 + 11 + 13 + 17 + 19)

% repeat-until runs its body at least once
n = 0
repeat
    n += 1
until n >= 1
assert(n == 1)
x = 1
steps = 0
repeat
    x *= 3
    steps += 1
until x > 100
assert(x == 243 && steps == 5)

% Collatz steps of 27, with while
c = 27
count = 0
while c != 1
    if mod(c, 2) == 0
        c = c / 2
    else
        c = 3 * c + 1
    endif
    count += 1
endwhile
assert(count == 111)

% break leaves only the innermost loop
hits = 0
for a = 0..4
    for b = 0..4
        if b > a
            break
        endif
        hits += 1
    endfor
endfor
assert(hits == 15)

% continue in a for loop
t = 0
for k = 0..9
    if k == 3 || k == 7
        continue
    endif
    t += k
endfor
assert(t == 45 - 10)

% loops with the block-closing word `end`
u = 0
for k = 1..3
    if k == 2
        u += 10
    else
        u += 1
    end
end
assert(u == 12)
w = 3
while w > 0
    w -= 1
end
assert(w == 0)

% the bound of a for loop is evaluated once
lim = 3
iters = 0
for k = 0..lim
    lim = 100
    iters += 1
endfor
assert(iters == 4)
print "loops: ok"
