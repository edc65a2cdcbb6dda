% From seed 000 (Tutorial 6: Advanced GPU programming), lines 77-80: fragment: aggregating the local histograms
syncthreads
for i = ind..cnt..256-1
    y[i] += sum(y_sh[i,0..3])
endfor
