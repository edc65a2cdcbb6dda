% EXPECT: 1 ^tests/cpu_errors/parloop_checked_big\.q:13:13: runtime error: index \[256\] out of range for array 'y' of size \[256\] in kernel 'parloop:top'
% Seed 000's hist_naive loop over 3 M elements with one bin outside y: large enough for the
% GPU's unrolled loop, whose steps test their bins together and run again, with a test per
% element, when one failed (emit_cuda.c pf_step); the index is still reported.

im = zeros(1024, 1024, 3)
im[100, 5, 1] = 256
y = zeros(256)
for m = 0..size(im, 0) - 1
    for n = 0..size(im, 1) - 1
        for k = 0..size(im, 2) - 1
            v = im[m, n, k]
            y[v] += 1
        endfor
    endfor
endfor
print "not reached"
