% tests/gpu.sh (pool step): as pool.q, but the kernel reads y, so every y is uploaded: 1000
% uploads (the counter the overwrite analysis brings to 0 in pool.q).
function [] = __kernel__ k_add(y : vec, pos : int)
    y[pos] = y[pos] + pos
endfunction
s = 0
for r = 1..1000
    y = ones(256)
    parallel_do(256, y, k_add)
    s += y[255]
endfor
assert(s == 256000)
print "pool_read: ok"
