% Seed 003, 10.5 Convolution, 3) the separable filter with shared memory, tested for what
% the seed code computes. Its horizontal pass reads row pos[0] (not pos[0]-1), so the
% vertical pass adds rows pos[0], pos[0]+1, pos[0]+2:
%   y[m,n,k] = (1/9) * sum over dm in 0..2, dn in -1..1 of x[m+dm, n+dn, k]  (0 outside)
% It indexes the channel with blkpos[2], which is pos[2] only when a block spans all
% channels; both launches below have blocks of 3 channels.
% The parameter list breaks after "pos:ivec3," inside the parentheses, as in the seed.
% REPAIR: `x = imread("image.png")` reads a generated image instead, imshow(y) is left out.

function [] = __kernel__ filter3x3_kernel_separable(x:cube,y:cube,pos:ivec3,
blkpos:ivec3,blkdim:ivec3)
[M,N,P] = blkdim+[2,0,0]
assert(M<=10 && N<=16 && P<=3) % specify upper bounds for the amount of shared memory
vals = shared(M, N, P) % shared memory

sum = 0.
for i=pos[1]-1..pos[1]+1 % step 1 - horizontal filter
sum += x[pos[0],i,blkpos[2]]
endfor
vals[blkpos] = sum % store the result
if blkpos[0]<2 % filter two extra rows (needed for vertical filtering)
sum = 0.
for i=pos[1]-1..pos[1]+1
sum += x[pos[0]+blkdim[0],i,blkpos[2]]
endfor
vals[blkpos+[blkdim[0],0,0]] = sum
endif
syncthreads
sum = 0.
for i=blkpos[0]..blkpos[0]+2 % step 2 - vertical filter
sum += vals[i,blkpos[1],blkpos[2]]
endfor
y[pos] = sum*(1.0/9)
endfunction

% ---- test driver ----
% x[m, n, k], or 0 outside the image (the boundary rule of an unannotated kernel read)
function v = at(x, m, n, k)
    v = 0
    if m >= 0 && m < size(x, 0) && n >= 0 && n < size(x, 1)
        v = x[m, n, k]
    endif
endfunction

function [] = check(x, y)
    for m = 0..size(x, 0)-1
        for n = 0..size(x, 1)-1
            for k = 0..2
                s = 0
                for dm = 0..2
                    for dn = -1..1
                        s += at(x, m + dm, n + dn, k)
                    endfor
                endfor
                assert(abs(y[m, n, k] - s / 9) < 1e-3)
            endfor
        endfor
    endfor
endfunction

% as in the seed: the default blocks of an 8x16x3 image (it fits in one block of 384
% threads, within the kernel's asserted bounds M <= 10, N <= 16, P <= 3)
x = zeros(8, 16, 3)
for m = 0..7
    for n = 0..15
        for k = 0..2
            x[m, n, k] = mod(13 * m + 7 * n + 3 * m * n + 50 * k, 97)
        endfor
    endfor
endfor
y = ones(size(x)) * -1
parallel_do(size(y),x,y,filter3x3_kernel_separable)
check(x, y)

% explicit blocks of 8x16x3 over a 24x16x3 image: three blocks share the work, and each
% block's two extra rows come from the next block's rows
x = zeros(12, 16, 3)
for m = 0..11
    for n = 0..15
        for k = 0..2
            x[m, n, k] = mod(13 * m + 7 * n + 3 * m * n + 50 * k, 97)
        endfor
    endfor
endfor
x2 = zeros(24, 16, 3)
for m = 0..23
    for n = 0..15
        for k = 0..2
            x2[m, n, k] = x[mod(m, 12), n, k] + m
        endfor
    endfor
endfor
y2 = ones(size(x2)) * -1
parallel_do([size(x2), [8, 16, 3]], x2, y2, filter3x3_kernel_separable)
check(x2, y2)
print "filter_shared_105: ok"
