% EXPECT: 1 runtime error: imresize: unknown method 'lanczos3' \(nearest, bilinear or bicubic\)
% imresize knows three methods.
import "imresize.q"
y = imresize(ones(4, 4), 2, "lanczos3")
