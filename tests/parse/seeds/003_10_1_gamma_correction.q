% From seed 003 (10 Parallel programming examples), lines 10-15: gamma correction with a __kernel__ lambda
% REPAIR: curly quotes (’) from the PDF written as plain apostrophes
x = imread("image.png")
y = copy(x)
gamma = 0.22
parallel_do(size(y),y,gamma,__kernel__ (y:cube'unchecked, gamma:scalar, pos:ivec3) -> _
y[pos] = 255*(y[pos]*(1.0/255))^gamma)
imshow(y)
