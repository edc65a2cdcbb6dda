% tests/gpu.sh (pool step): zeros(256) a thousand times, each filled by a kernel and read on
% the host. gpu.sh checks the counters of --profile: the device pool serves the blocks (a
% handful of cuMemAlloc calls, not 1000) and no array is uploaded (the kernel overwrites y).
function [] = __kernel__ k_fill(y : vec, pos : int)
    y[pos] = pos
endfunction
s = 0
for r = 1..1000
    y = zeros(256)
    parallel_do(256, y, k_fill)
    s += y[255]
endfor
assert(s == 255000)
print "pool: ok"
