% Gamma correction (seed 003, section 10.1): a one-line __kernel__ lambda brightens the
% photograph, y = 255 (x/255)^0.22, on every sample.
% Run: oq run examples/gamma.q [INPUT [OUTPUT [SIZE]]]
%   SIZE > 0 crops the centre to at most SIZE x SIZE (lib/gallery.q), 0 keeps the whole image.
import "lib/gallery.q"

function [] = main(input = "examples/data/chelsea.png", output = "build/examples/gamma.png", size_ = 0)
    x = load_image(input, size_)          % the seed: x = imread("image.png")
    y = copy(x)
    gamma = 0.22
    parallel_do(size(y),y,gamma,__kernel__ (y:cube'unchecked, gamma:scalar, pos:ivec3) -> _
        y[pos] = 255*(y[pos]*(1.0/255))^gamma)
    imwrite(output, y)                    % the seed shows it: imshow(y)
    print "gamma: wrote ", output
endfunction
