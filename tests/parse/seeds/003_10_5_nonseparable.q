% From seed 003 (10 Parallel programming examples), lines 145-151: 3x3 local means, non-separable
    x = imread("image.png")
    y = zeros(size(x))
    parallel_do(size(y),x,y,__kernel__ (x:cube,y:cube,pos:ivec3) -> _
    y[pos] = (x[pos+[-1,-1,0]]+x[pos+[-1,0,0]]+x[pos+[-1,1,0]] + _
    x[pos+[ 0,-1,0]]+x[pos ]+x[pos+[0,1,0]] + _
    x[pos+[ 1,-1,0]]+x[pos+[ 1,0,0]]+x[pos+[1,1,0]])*(1.0/9))
    imshow(y)
