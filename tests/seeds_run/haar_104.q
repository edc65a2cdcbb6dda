% Seed 003, 10.4 2D Haar inplace wavelet transform using lifting: forward then backward is
% an exact round trip on integer data; forward on a constant image leaves the constant in
% the coarsest low-pass band and zeros elsewhere; one scale against a host loop.
% REPAIR: typographic apostrophes (U+2019, PDF damage) are straight quotes: cube'unchecked.

function [] = haar_fw(x, num_scales)
function [] = __kernel__ hor_haar_fw_kernel(x : cube'unchecked, _
y : cube'unchecked, j : int, pos : ivec3)
n = size(x,1)/2^(j+1)
if mod(pos[1],2)==0
[a, b] = [x[pos], x[pos+[0,1,0]]]
y[pos[0],pos[1]/2,pos[2]]=0.5*(a+b)
y[pos[0],pos[1]/2+n,pos[2]]=a-b
endif
endfunction
function [] = __kernel__ ver_haar_fw_kernel(x : cube'unchecked, _
y : cube'unchecked, j : int, pos : ivec3)
m = size(x,0)/2^(j+1)
if mod(pos[0],2)==0
[a, b] = [x[pos], x[pos+[1,0,0]]]
y[pos[0]/2,pos[1],pos[2]]=0.5*(a+b)
y[pos[0]/2+m,pos[1],pos[2]]=a-b
endif
endfunction
tmp = zeros(size(x))
for j=0..num_scales-1
sz = [size(x,0)/2^j,size(x,1)/2^j,size(x,2)]
parallel_do(sz,x,tmp,j,hor_haar_fw_kernel)
parallel_do(sz,tmp,x,j,ver_haar_fw_kernel)
endfor
endfunction

function [] = haar_bw(x, num_scales)
function [] = __kernel__ hor_haar_bw_kernel(x : cube'unchecked, _
y : cube'unchecked, j : int, pos : ivec3)
n = size(x,1)/2^(j+1)
if mod(pos[1],2)==0
a = x[pos[0],pos[1]/2,pos[2]]
b = x[pos[0],pos[1]/2+n,pos[2]]
y[pos]=a+0.5*b
y[pos+[0,1,0]]=a-0.5*b
endif
endfunction
function [] = __kernel__ ver_haar_bw_kernel(x : cube'unchecked, _
y : cube'unchecked, j : int, pos : ivec3)
m = size(x,0)/2^(j+1)
if mod(pos[0],2)==0
a = x[pos[0]/2,pos[1],pos[2]]
b = x[pos[0]/2+m,pos[1],pos[2]]
y[pos]=a+0.5*b
y[pos+[1,0,0]]=a-0.5*b
endif
endfunction
tmp = zeros(size(x))
for j=num_scales-1..-1..0
sz = [size(x,0)/2^j,size(x,1)/2^j,size(x,2)]
parallel_do(sz,x,tmp,j,hor_haar_bw_kernel)
parallel_do(sz,tmp,x,j,ver_haar_bw_kernel)
endfor
endfunction

% ---- test driver ----
H = 16
W = 24
x0 = zeros(H, W, 3)
for m = 0..H-1
    for n = 0..W-1
        for c = 0..2
            x0[m, n, c] = mod(37 * m + 11 * n * n + 101 * c + m * n, 256)
        endfor
    endfor
endfor

% the round trip is exact, for 1, 2 and 3 scales
for S = 1..3
    x = copy(x0)
    haar_fw(x, S)
    changed = 0
    for m = 0..H-1
        for n = 0..W-1
            changed += x[m, n, 0] != x0[m, n, 0]
        endfor
    endfor
    assert(changed > 0)
    haar_bw(x, S)
    for m = 0..H-1
        for n = 0..W-1
            for c = 0..2
                assert(x[m, n, c] == x0[m, n, c])
            endfor
        endfor
    endfor
endfor

% one scale against a host loop: rows first (averages | differences), then columns
x = copy(x0)
haar_fw(x, 1)
t = zeros(H, W, 3)
for m = 0..H-1
    for k = 0..W/2-1
        for c = 0..2
            t[m, k, c] = 0.5 * (x0[m, 2 * k, c] + x0[m, 2 * k + 1, c])
            t[m, k + W/2, c] = x0[m, 2 * k, c] - x0[m, 2 * k + 1, c]
        endfor
    endfor
endfor
for r = 0..H/2-1
    for n = 0..W-1
        for c = 0..2
            assert(x[r, n, c] == 0.5 * (t[2 * r, n, c] + t[2 * r + 1, n, c]))
            assert(x[r + H/2, n, c] == t[2 * r, n, c] - t[2 * r + 1, n, c])
        endfor
    endfor
endfor

% a constant image: after S scales the top-left (H/2^S)x(W/2^S) block holds the constant
% and every detail coefficient is 0
S = 3
x = ones(H, W, 3) * 100
haar_fw(x, S)
for m = 0..H-1
    for n = 0..W-1
        for c = 0..2
            want = (m < H / 2^S && n < W / 2^S) ? 100 : 0
            assert(x[m, n, c] == want)
        endfor
    endfor
endfor
print "haar_104: ok"
