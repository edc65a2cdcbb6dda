% Seed 003, 10.3 Image rotation, translation and scaling: with theta = 0, s = 0 and no
% translation the transform is the identity wherever the 2x2 interpolation window fits
% (rows 0..H-2, columns 0..W-2) and 0 elsewhere; a translation and a scale by 2 move
% pixels by exact amounts.
% REPAIR: typographic apostrophes (U+2019, PDF damage) are straight quotes: cube'unchecked, mat'unchecked'const.

function [] = rotatescaletranslate(img_in, img_out, theta, s, tx, ty)
% Device function for performing linear interpolation
function [q:vec3] = __device__ linear_interpolate(img_in:cube'unchecked, p:vec2)
i = floor(p)
f = frac(p)
if min(i) >= 0 && max(i-size(img_in,0..1)) < -1
q = img_in[i[0],i[1],0..2] * (1 - f[0]) * (1 - f[1]) + _
img_in[i[0],i[1]+1,0..2] * (1 - f[0]) * f[1] + _
img_in[i[0]+1,i[1],0..2] * f[0] * (1 - f[1]) + _
img_in[i[0]+1,i[1]+1,0..2] * f[0] * f[1]
else
q = [0.,0.,0.]
endif
endfunction
function [] = __kernel__ tf_kernel(img_out : cube'unchecked, _
img_in:cube'unchecked, A:mat'unchecked'const, t:vec2, pos:ivec2)
center = size(img_in,0..1)/2
p = pos - center
p = [A[0,0]*p[0] + A[0,1]*p[1], A[1,0]*p[0] + A[1,1]*p[1]] + center + t
img_out[pos[0],pos[1],0..2] = linear_interpolate(img_in, p)
endfunction
degrees_to_radians = theta -> theta*pi/180
theta = degrees_to_radians(theta)
A = [[cos(theta), -sin(theta)],
[sin(theta), cos(theta)]] * 2^s

parallel_do(size(img_out,0..1),img_out,img_in,A,-[ty,tx],tf_kernel)
endfunction

% ---- test driver ----
H = 16
W = 20
img = zeros(H, W, 3)
for m = 0..H-1
    for n = 0..W-1
        for c = 0..2
            img[m, n, c] = 1 + mod(3 * m + 5 * n + 7 * c, 50)
        endfor
    endfor
endfor

% the expected output when each output pixel [m, n] samples the input at [a, b] (integral)
function [] = check(out, img, amap, bmap)
    for m = 0..size(out, 0)-1
        for n = 0..size(out, 1)-1
            a = amap(m)
            b = bmap(n)
            inside = a >= 0 && b >= 0 && a <= size(img, 0) - 2 && b <= size(img, 1) - 2
            for c = 0..2
                want = inside ? img[a, b, c] : 0
                assert(out[m, n, c] == want)
            endfor
        endfor
    endfor
endfunction

out = ones(H, W, 3) * -1
rotatescaletranslate(img, out, 0, 0, 0, 0)
check(out, img, m -> m, n -> n)

% a translation: t = -[ty, tx] is added to the sampling position
out = ones(H, W, 3) * -1
rotatescaletranslate(img, out, 0, 0, 2, 1)
check(out, img, m -> m - 1, n -> n - 2)

% a scale by 2^1 about the center [H/2, W/2] = [8, 10]: p = 2 (pos - center) + center
out = ones(H, W, 3) * -1
rotatescaletranslate(img, out, 0, 1, 0, 0)
check(out, img, m -> 2 * m - 8, n -> 2 * n - 10)
print "rotate_103: ok"
