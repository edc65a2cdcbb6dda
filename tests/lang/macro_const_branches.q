% A macro's literal arguments make conditions such as `if 2 < C` constant: the expansion keeps
% only the branch taken (transform_macro.c, subst_copy_stmts), so the other branch is never
% resolved (here it calls a function that does not exist) and costs nothing. The values are
% checked against sums written out by hand.
macro [] = sum_first(v, C, total)
    total = 0
    if 0 < C
        total += v[0]
    endif
    if 1 < C
        total += v[1]
    endif
    if 2 < C
        total += v[2]
    else
        total += 0 * v[0]
    endif
    if C > 3
        total += no_such_function(v)
    endif
    if 2 * C - 1 == 3 && C != 5
        total += 1000
    endif
endmacro

v = [10, 20, 30, 40]
sum_first(v, 1, a)
assert(a == 10)
sum_first(v, 2, b)
assert(b == 10 + 20 + 1000)
sum_first(v, 3, c)
assert(c == 10 + 20 + 30)

% the same inside a kernel: the kernel keeps only the taken branches
function [] = __kernel__ k(v : vec, y : vec, pos : int)
    sum_first(v, 2, t)
    y[pos] = t + pos
endfunction
y = zeros(4)
parallel_do(4, v, y, k)
for i = 0..3
    assert(y[i] == 1030 + i)
endfor
% a condition that is not constant keeps both branches
n = 2
if n < 3
    z = 1
else
    z = 2
endif
assert(z == 1)
print "ok"
