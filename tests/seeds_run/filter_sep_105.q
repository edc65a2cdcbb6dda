% Seed 003, 10.5 Convolution, 2) the separable version, tested for what the seed code
% computes: its second pass multiplies only the last term by 1/9,
%   y[m,n] = tmp[m,n-1] + tmp[m,n] + tmp[m,n+1]/9  with  tmp[m,n] = x[m-1,n]+x[m,n]+x[m+1,n]
% (zero outside: both kernels read unannotated cubes).
% REPAIR: `x = imread("image.png")` reads a generated image instead, and imshow(x) is
%         left out.

x = zeros(12, 16, 3)
for m = 0..11
    for n = 0..15
        for k = 0..2
            x[m, n, k] = mod(13 * m + 7 * n + 3 * m * n + 50 * k, 97)
        endfor
    endfor
endfor

% ---- seed code ----
y = zeros(size(x))
tmp = zeros(size(x))
parallel_do(size(y),x,tmp,__kernel__ (x:cube,y:cube,pos:ivec3) -> _
y[pos] = x[pos+[-1,0,0]]+x[pos]+x[pos+[1,0,0]])
parallel_do(size(x),tmp,y,__kernel__ (x:cube,y:cube,pos:ivec3) -> _
y[pos] = x[pos+[0,-1,0]]+x[pos]+x[pos+[0,1,0]]*(1.0/9))

% ---- test driver ----
% x[m, n, k], or 0 outside the image (the boundary rule of an unannotated kernel read)
function v = at(x, m, n, k)
    v = 0
    if m >= 0 && m < size(x, 0) && n >= 0 && n < size(x, 1)
        v = x[m, n, k]
    endif
endfunction

t = zeros(size(x))
for m = 0..11
    for n = 0..15
        for k = 0..2
            t[m, n, k] = at(x, m - 1, n, k) + x[m, n, k] + at(x, m + 1, n, k)
            assert(tmp[m, n, k] == t[m, n, k])
        endfor
    endfor
endfor
for m = 0..11
    for n = 0..15
        for k = 0..2
            want = at(t, m, n - 1, k) + t[m, n, k] + at(t, m, n + 1, k) / 9
            assert(abs(y[m, n, k] - want) < 1e-3)
        endfor
    endfor
endfor
print "filter_sep_105: ok"
