% `continue` in parallel loops: a continue of the nest's innermost loop ends that
% iteration's thread; one inside an inner serial loop stays that loop's continue. The
% references are while loops (never parallelized); outputs are poisoned first.

n = 300
x = zeros(n)
for i = 0..n-1
    x[i] = mod(i * 37, 101) - 50
endfor

% 1. skip some iterations, with a reduction and an element write
y = ones(n) * -777
s = 0.0
cnt = 0
for i = 0..n-1
    if x[i] < 0
        continue
    endif
    y[i] = x[i] * 2
    s += x[i]
    cnt += 1
endfor
ry = ones(n) * -777
rs = 0.0
rc = 0
i = 0
while i < n
    if x[i] >= 0
        ry[i] = x[i] * 2
        rs = rs + x[i]
        rc = rc + 1
    endif
    i = i + 1
endwhile
assert(sum(abs(y - ry)) == 0 && s == rs && cnt == rc)

% 2. a 2-D nest whose inner body continues from a match, and an inner serial loop's own
%    continue (it skips one k, not the iteration of the nest)
A = ones(20, 30) * -777
for r = 0..19
    for c = 0..29
        match mod(r + c, 3) with
        | 0 -> continue
        | _ -> t = 0
        endmatch
        for k = 0..4
            if k == 2
                continue
            endif
            t += k * r
        endfor
        A[r, c] = t + c
    endfor
endfor
r = 0
while r < 20
    c = 0
    while c < 30
        want = mod(r + c, 3) == 0 ? -777 : (0 + 1 + 3 + 4) * r + c
        assert(A[r, c] == want)
        c = c + 1
    endwhile
    r = r + 1
endwhile
print "parloop_continue: ok"
