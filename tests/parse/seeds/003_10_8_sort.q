% From seed 003 (10 Parallel programming examples), lines 340-393: bitonic sort
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
