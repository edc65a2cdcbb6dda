% CHECK: parse-only (fragment: ind, cnt, y_sh are defined in the kernel of hist_shared)
% From seed 000 (Tutorial 6: Advanced GPU programming), lines 62-65: fragment: initialising the local histogram
for i = ind..cnt..numel(y_sh)-1
    y_sh[ind2pos(size(y_sh), i)] = 0.0
endfor
syncthreads
