% Seed 003, 10.5 Convolution, 1) the non-separable 3x3 local mean, against a host loop
% with the same boundary rule (zero outside: x is unannotated in the kernel).
% REPAIR: `x = imread("image.png")` reads a generated image instead, and imshow(y) is
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
parallel_do(size(y),x,y,__kernel__ (x:cube,y:cube,pos:ivec3) -> _
y[pos] = (x[pos+[-1,-1,0]]+x[pos+[-1,0,0]]+x[pos+[-1,1,0]] + _
x[pos+[ 0,-1,0]]+x[pos ]+x[pos+[0,1,0]] + _
x[pos+[ 1,-1,0]]+x[pos+[ 1,0,0]]+x[pos+[1,1,0]])*(1.0/9))

% ---- test driver ----
% x[m, n, k], or 0 outside the image (the boundary rule of an unannotated kernel read)
function v = at(x, m, n, k)
    v = 0
    if m >= 0 && m < size(x, 0) && n >= 0 && n < size(x, 1)
        v = x[m, n, k]
    endif
endfunction

for m = 0..11
    for n = 0..15
        for k = 0..2
            s = 0
            for dm = -1..1
                for dn = -1..1
                    s += at(x, m + dm, n + dn, k)
                endfor
            endfor
            assert(abs(y[m, n, k] - s / 9) < 1e-3)
        endfor
    endfor
endfor
print "filter_nonsep_105: ok"
