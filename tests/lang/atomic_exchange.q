% Atomic exchange  old = (a[i] <- new)  and compare-exchange  old = (a[i] <- (expected, new)),
% in host code and in kernels (seed 001).

a = [0, 0]
old = (a[0] <- 5)
assert(old == 0 && a[0] == 5)
old = (a[0] <- 6)
assert(old == 5 && a[0] == 6)

% compare-exchange: swaps only when the element equals the expected value; returns the old
old = (a[1] <- (0, 7))
assert(old == 0 && a[1] == 7)
old = (a[1] <- (0, 9))
assert(old == 7 && a[1] == 7)
old = (a[1] <- (7, 9))
assert(old == 7 && a[1] == 9)

% In a kernel: every thread exchanges its own value into one cell. Whatever the order, the
% old values together with the final content are the initial value and all thread values.
function [] = __kernel__ swap_in(cell : vec, olds : vec, pos : int)
    olds[pos] = (cell[0] <- pos + 1)
endfunction

N = 300
cell = [1000]
olds = ones(N) * -1
parallel_do(N, cell, olds, swap_in)
seen = zeros(N + 2)
seen[cell[0] == 1000 ? N + 1 : cell[0]] += 1
for i = 0..N-1
    v = olds[i]
    assert(v == 1000 || (v >= 1 && v <= N))
    seen[v == 1000 ? N + 1 : v] += 1
endfor
for v = 1..N + 1
    assert(seen[v] == 1)
endfor
assert(seen[0] == 0)

% A compare-exchange from 0 succeeds for exactly one thread: the winner
function [] = __kernel__ race(flag : vec, wins : vec, got : vec, pos : int)
    old = (flag[0] <- (0, pos + 1))
    if old == 0
        wins[0] += 1
    endif
    got[pos] = old
endfunction

flag = [0]
wins = [0]
got = ones(N) * -1
parallel_do(N, flag, wins, got, race)
assert(wins[0] == 1)
winner = flag[0] - 1
assert(winner >= 0 && winner < N)
for i = 0..N-1
    assert(got[i] == (i == winner ? 0 : winner + 1))
endfor
print "atomic_exchange: ok"
