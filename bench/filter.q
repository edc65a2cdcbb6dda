% 3x3 mean filter, the non-separable kernel of seed 003 10.5, on a 1920x1080x3 image.
function [] = __kernel__ fill(x : cube, pos : ivec3)
    x[pos] = mod(pos2ind(size(x), pos), 251)
endfunction
x = zeros(1080, 1920, 3)
parallel_do(size(x), x, fill)
y = zeros(size(x))
for r = 1..7
    tic()
    parallel_do(size(y),x,y,__kernel__ (x:cube,y:cube,pos:ivec3) -> _
        y[pos] = (x[pos+[-1,-1,0]]+x[pos+[-1,0,0]]+x[pos+[-1,1,0]] + _
                  x[pos+[ 0,-1,0]]+x[pos ]+x[pos+[0,1,0]] + _
                  x[pos+[ 1,-1,0]]+x[pos+[ 1,0,0]]+x[pos+[1,1,0]])*(1.0/9))
    toc("filter3x3 1920x1080x3")
endfor
print "checksum ", y[540, 2, 1]
