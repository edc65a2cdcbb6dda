% Boundary modifier 'mirror on kernel (and host) reads, Quasar's rule (QUASAR-NOTES.md):
% |i| mod 2N, folded to 2N-1-m where m >= N: -1 -> 1, N -> N-1.
% Every read x[i + d] for offsets d far outside the array is compared with a host loop
% that computes the expected index by hand.

% the index that i stands for in an array of n elements: x[-i] is x[i]; past the end the
% extension runs back from the edge sample, repeating it (n -> n-1, 2n-1 -> 0, 2n -> 0)
function j = bidx(i, n)
    j = abs(i)
    while j >= n
        if j >= 2 * n
            j = j - 2 * n
        else
            j = 2 * n - 1 - j
        endif
    endwhile
endfunction

% 1-D: y[k, i] = x[i + offs[k]]
function [] = __kernel__ read1(x : vec'mirror, y : mat, offs : vec, pos : ivec2)
    y[pos] = x[pos[1] + offs[pos[0]]]
endfunction

% 2-D: a weighted sum over a window, with distinct weights so that any wrong index shows
function [] = __kernel__ read2(x : mat'mirror, y : mat, r : int, pos : ivec2)
    acc = 0.0
    for dm = -r..r
        for dn = -r..r
            acc += x[pos[0] + dm, pos[1] + dn] * ((dm + r) * (2 * r + 1) + (dn + r) + 1)
        endfor
    endfor
    y[pos] = acc
endfunction

N = 7
x = (0..N-1) * 10 + 1                 % no zeros inside, so a zero fill shows
offs = -16..16
y = ones(numel(offs), N) * -1e6
parallel_do(size(y), x, y, offs, read1)
for k = 0..numel(offs)-1
    for i = 0..N-1
        j = bidx(i + offs[k], N)
        want = j < 0 ? 0 : x[j]
        assert(y[k, i] == want)
    endfor
endfor

% the same reads in host code, through a variable declared with the modifier
xh : vec'mirror = x
for d = -16..16
    for i = [0, 3, N-1]
        j = bidx(i + d, N)
        want = j < 0 ? 0 : x[j]
        assert(xh[i + d] == want)
    endfor
endfor

R = 5
C = 6
m = zeros(R, C)
for a = 0..R-1
    for b = 0..C-1
        m[a, b] = 1 + mod(7 * a + 3 * b, 11)
    endfor
endfor
rad = 6                                % wider than the matrix: several reflections/periods
out = ones(R, C) * -1e6
parallel_do(size(out), m, out, rad, read2)
for a = 0..R-1
    for b = 0..C-1
        acc = 0.0
        for dm = -rad..rad
            for dn = -rad..rad
                ia = bidx(a + dm, R)
                ib = bidx(b + dn, C)
                v = (ia < 0 || ib < 0) ? 0 : m[ia, ib]
                acc += v * ((dm + rad) * (2 * rad + 1) + (dn + rad) + 1)
            endfor
        endfor
        assert(out[a, b] == acc)
    endfor
endfor
print "boundary_mirror: ok"
