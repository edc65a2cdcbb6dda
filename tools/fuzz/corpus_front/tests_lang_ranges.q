% Ranges are inclusive: a..b, a..step..b; a range is also a vector value.

function n = count_loop(a, s, b)
    n = 0
    for i = a..s..b
        n += 1
    endfor
endfunction

r = 0..4
assert(numel(r) == 5)
for i = 0..4
    assert(r[i] == i)
endfor

% negative steps
r = 4..-1..0
assert(numel(r) == 5)
for i = 0..4
    assert(r[i] == 4 - i)
endfor
r = 10..-3..0
assert(numel(r) == 4)
assert(r[0] == 10 && r[1] == 7 && r[2] == 4 && r[3] == 1)

% positive steps that overshoot the end
r = 0..2..9
assert(numel(r) == 5)
assert(r[4] == 8)

% a fractional step: 0, 0.1, ..., 1 (eleven values; the end is included)
x = 0..0.1..1
assert(numel(x) == 11)
for k = 0..10
    assert(abs(x[k] - k / 10) < 1e-5)
endfor
x = 0.1..0.1..1
assert(numel(x) == 10)

% a non-integral end
r = 0..2.5
assert(numel(r) == 3)
assert(r[2] == 2)

% empty ranges: the loop body never runs
assert(count_loop(5, 1, 4) == 0)
assert(count_loop(0, -1, 1) == 0)
assert(count_loop(3, 1, 3) == 1)
assert(count_loop(3, -1, 0) == 4)
assert(count_loop(0, 3, 10) == 4)
n = 0
for i = 5..4
    n += 1
endfor
assert(n == 0)

% the loop visits the values in order
seen = zeros(4)
k = 0
for i = 3..-1..0
    seen[k] = i
    k += 1
endfor
assert(seen[0] == 3 && seen[1] == 2 && seen[2] == 1 && seen[3] == 0)

% a range used as a vector
assert(sum(1..100) == 5050)
sq = (-2..2).^2
want = [4, 1, 0, 1, 4]
for i = 0..4
    assert(sq[i] == want[i])
endfor
N = 6
assert(numel(0..N-1) == N)
print "ranges: ok"
