% Image rotation, scaling and translation (seed 003, section 10.3): a __device__ function
% interpolates bilinearly; the kernel maps each output pixel through A (rotation by
% theta degrees, scale 2^s) about the image centre, plus a translation.
% Run: oq run examples/rotate.q [INPUT [OUTPUT [SIZE [THETA [S [TX [TY]]]]]]]
% Output pixels whose 2x2 interpolation window leaves the input are black (the seed's
% bounds test in linear_interpolate).
import "lib/gallery.q"

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

function [] = main(input = "examples/data/chelsea.png", output = "build/examples/rotate.png", size_ = 0, _
        theta = 30, s = -0.25, tx = 10, ty = 5)
    x = load_image(input, size_)
    y = zeros(size(x))
    rotatescaletranslate(x, y, theta, s, tx, ty)
    imwrite(output, y)
    print "rotate: wrote ", output
endfunction
