% From seed 001 (Quasar - CUDA Support GUIDE), lines 163-170: aggregation with atomic +=
x = imread("image.tif")
[sum1,sum2] = [0.0,0.0]
for m=0..size(x,0)-1
    for n=0..size(x,1)-1
        sum1 += x[m,n]
        sum2 += x[m,n]^2
    endfor
endfor
