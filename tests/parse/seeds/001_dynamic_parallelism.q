% CHECK: parse-only (fragment: y is defined elsewhere)
% From seed 001 (Quasar - CUDA Support GUIDE), lines 828-833: implicit nested parallelism
for m=0..size(y,0)-1
    for c=0..size(y,2)-1
        row = y[m,:,c]
        y[m,:,c] = row[numel(row)-1..-1..0]
    endfor
endfor
