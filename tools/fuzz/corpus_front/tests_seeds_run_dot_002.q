% Seed 002 (Annexstein, ch. 5), the dot product with a shared cache, written in Quasar:
% threads stride over the vectors by the total thread count, each block reduces its cache
% by recursive halving and writes c[blkidx]; the host adds the block results.

function [] = __kernel__ dot(a : vec, b : vec, c : vec, pos : int, blkpos : int, _
        blkdim : int, blkidx : int, blkcnt : int)
    cache = shared(blkdim)
    tid = pos
    temp = 0.0
    while tid < numel(a)
        temp += a[tid] * b[tid]
        tid += blkdim * blkcnt
    endwhile
    cache[blkpos] = temp
    syncthreads
    % recursive halving: add pairs of values offset by powers of two
    offset = int(blkdim / 2)
    while offset != 0
        if blkpos < offset
            cache[blkpos] += cache[blkpos + offset]
        endif
        syncthreads
        offset /= 2
    endwhile
    if blkpos == 0
        c[blkidx] = cache[0]
    endif
endfunction

N = 5000
a = zeros(N)
b = zeros(N)
ref = 0
for i = 0..N-1
    a[i] = mod(i, 7) - 3
    b[i] = mod(3 * i, 5) - 2
    ref += a[i] * b[i]
endfor

% 1024 threads: two blocks of 512, each thread handling about five elements
c = ones(2) * 1e9
parallel_do(1024, a, b, c, dot)
assert(c[0] + c[1] == ref)

% explicit blocks: 8 blocks of 64 threads
c = ones(8) * 1e9
parallel_do([[512], [64]], a, b, c, dot)
s = 0
for k = 0..7
    s += c[k]
endfor
assert(s == ref)
print "dot_002: ok"
