% Kernel outputs: function [y : scalar] = __kernel__ f(...) accumulates with y += ...,
% and parallel_do returns the total.

function [y : scalar] = __kernel__ ksum(x : vec, pos : int)
    y += x[pos]
endfunction

function [y : scalar] = __kernel__ kcount_if(x : mat, t : scalar, pos : ivec2)
    if x[pos] > t
        y += 1
    endif
endfunction

% only thread 0 of each block contributes: the number of blocks
function [y : int] = __kernel__ nblocks(blkpos : ivec2)
    if blkpos[0] == 0 && blkpos[1] == 0
        y += 1
    endif
endfunction

N = 1000
x = zeros(N)
ref = 0
for i = 0..N-1
    x[i] = mod(i * 13, 17) - 8
    ref += x[i]
endfor
s = parallel_do(N, x, ksum)
assert(s == ref)

m = reshape(mod(0..299, 11), [15, 20])
cnt = parallel_do(size(m), m, 6.5, kcount_if)
ref = 0
for i = 0..14
    for j = 0..19
        if m[i, j] > 6.5
            ref += 1
        endif
    endfor
endfor
assert(cnt == ref)

nb = parallel_do([[16, 24], [8, 6]], nblocks)
assert(nb == (16 / 8) * (24 / 6))

% each launch starts from zero
s2 = parallel_do(N, x, ksum)
assert(s2 == s)
print "kernel_outputs: ok"
