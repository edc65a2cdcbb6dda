% Seed 003, 10.8 Parallel sort: the bitonic sort along the rows of a matrix, in shared
% memory. Every row must come out sorted and be a permutation of the input row; the row
% length need not be a power of two.
% The parameter list breaks inside the parentheses, as in the seed.

function [] = sort(x)
function [] = __kernel__ bitsort(x : mat, n : int, blkdim : ivec2,
blkpos : ivec2, pos : ivec2)
k = 2
% copy the row to the shared memory...
s = shared(blkdim[0], n)
for l = 0..blkdim[1]..n-1
tid = blkpos[1] + l
if tid < size(x,1)
s[blkpos[0], tid] = x[pos[0], tid]
else
s[blkpos[0], tid] = 1e37 % maximum floating point value
endif
endfor
syncthreads
% parallel bitonic sort
while k <= n
% bitonic merge
j = int(k / 2)
while j > 0
for l = 0..blkdim[1]..n-1
tid = blkpos[1] + l % thread id
ixj = xor(tid, j)
if tid < ixj
if and(tid, k) == 0
v = [blkpos[0], tid]
w = [blkpos[0], ixj]
else
v = [blkpos[0], ixj]
w = [blkpos[0], tid]
endif
if s[v] > s[w]
[s[v], s[w]] = [s[w], s[v]]
endif
endif
endfor
syncthreads
j /= 2
endwhile
k *= 2
endwhile
% Copy back the results
for l = 0..blkdim[1]..n-1
tid = blkpos[1] + l
if tid < size(x,1)
x[pos[0], tid] = s[blkpos[0], tid]
endif
endfor
endfunction
nextpow2 = x -> 2^ceil(log2(x))
n = nextpow2(size(x,1))
sz = max_block_size(bitsort, [size(x,0),min(n,256),1])
parallel_do([[size(x,0),sz[1],1],sz],x,n,bitsort)
endfunction

% ---- test driver ----
function [] = check_sorted(x, orig)
    for r = 0..size(x, 0)-1
        for c = 1..size(x, 1)-1
            assert(x[r, c - 1] <= x[r, c])
        endfor
        % a permutation: every value occurs as often as in the input row
        for c = 0..size(x, 1)-1
            v = orig[r, c]
            before = 0
            after = 0
            for d = 0..size(x, 1)-1
                before += orig[r, d] == v
                after += x[r, d] == v
            endfor
            assert(before == after)
        endfor
    endfor
endfunction

shapes = [[4, 20], [2, 32], [3, 7]]
for t = 0..2
    R = shapes[t, 0]
    C = shapes[t, 1]
    x = zeros(R, C)
    for r = 0..R-1
        for c = 0..C-1
            x[r, c] = mod(37 * c + 11 * r + c * c * r, 23) - 11   % with repeated values
        endfor
    endfor
    orig = copy(x)
    sort(x)
    check_sorted(x, orig)
endfor
print "bitonic_108: ok"
