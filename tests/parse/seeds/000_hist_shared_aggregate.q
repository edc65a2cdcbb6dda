% CHECK: parse-only (fragment: ind, cnt, y, y_sh are defined in the kernel of hist_shared)
% From seed 000 (Tutorial 6: Advanced GPU programming), lines 77-80: fragment: aggregating the local histograms
syncthreads
for i = ind..cnt..256-1
    y[i] += sum(y_sh[i,0..3])
endfor
