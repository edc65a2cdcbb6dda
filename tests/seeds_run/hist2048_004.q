% Seed 004 (Gut & Litarowicz, lab 8) written in Quasar: a 2048-bin histogram whose bins
% saturate at a cap (65535 for 16 bits): each update is `+=` followed by `__=` (atomic
% minimum), as the CUDA code does with atomicAdd then atomicMin. A naive kernel on the
% global histogram, and a kernel with a per-block histogram in shared memory that is then
% added to the global one (saturating again). Both against a host count capped at the cap,
% with the 16-bit cap and with a small cap that the data exceeds.

NBINS = 2048

function [] = __kernel__ naive_histogram(data : vec, hist : vec[uint16], cap : int, pos : int)
    v = data[pos]
    hist[v] += 1
    hist[v] __= cap                  % saturation
endfunction

function [] = __kernel__ shared_histogram(data : vec, hist : vec[uint16], cap : int, nbins : int, _
        pos : int, blkpos : int, blkdim : int)
    local = shared(nbins)
    for i = blkpos..blkdim..nbins-1
        local[i] = 0
    endfor
    syncthreads
    v = data[pos]
    local[v] += 1
    local[v] __= cap
    syncthreads
    for j = blkpos..blkdim..nbins-1
        if local[j] > 0
            hist[j] += local[j]
            hist[j] __= cap
        endif
    endfor
endfunction

% data: each bin once (7 i mod 2048 is a permutation), then 128 more values in each of
% the bins 0, 100, ..., 1500
N = 4096
data = zeros(N)
for i = 0..N-1
    data[i] = i < 2048 ? mod(7 * i, 2048) : 100 * mod(i, 16)
endfor
count = zeros(NBINS)
for i = 0..N-1
    count[data[i]] = count[data[i]] + 1
endfor
assert(count[100] == 129 && count[101] == 1)

for cap = [65535, 3]
    h1 = vec[uint16](NBINS)
    parallel_do(N, data, h1, cap, naive_histogram)
    h2 = vec[uint16](NBINS)
    parallel_do(N, data, h2, cap, NBINS, shared_histogram)
    for b = 0..NBINS-1
        want = count[b] < cap ? count[b] : cap
        assert(h1[b] == want)
        assert(h2[b] == want)
    endfor
endfor
print "hist2048_004: ok"
