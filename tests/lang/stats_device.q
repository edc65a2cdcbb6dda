% The array built-ins read arrays that a kernel wrote (on --target cuda they live on the
% device until host code reads them): each result is checked against a host loop over the
% same data, read after the built-in ran.
function [] = __kernel__ k_fill(x : vec, pos : int)
    x[pos] = mod(pos * 37, 101) - 50           % a permutation of -50..50 (101 is prime)
endfunction
function [] = __kernel__ k_fill2(y : mat, pos : ivec2)
    y[pos] = mod(pos[0] * 7 + pos[1] * 3, 11)
endfunction

n = 101
x = zeros(n)
parallel_do(n, x, k_fill)
[s, idx] = sort(x)                             % the first host read of x
for k = 0..n-1
    assert(s[k] == k - 50 && x[idx[k]] == s[k])
endfor
parallel_do(n, x, k_fill)                      % written again on the device
assert(median(x) == 0 && max(x) == 50 && numel(find(x > 40)) == 10)
parallel_do(n, x, k_fill)
cs = cumsum(x)
assert(cs[n - 1] == 0)
y = zeros(6, 5)
parallel_do(size(y), y, k_fill2)
m0 = max(y, [], 0)
[u, ia, ic] = unique(y)
c = vertcat(y, y)
parallel_do(size(y), y, k_fill2)
f = circshift(y, [1, 2])
for j = 0..4
    best = 0
    for i = 0..5
        best = max(best, y[i, j])
        assert(c[i + 6, j] == y[i, j] && f[mod(i + 1, 6), mod(j + 2, 5)] == y[i, j])
    endfor
    assert(m0[j] == best)
endfor
for k = 0..29
    assert(u[ic[k]] == y[k])
endfor
