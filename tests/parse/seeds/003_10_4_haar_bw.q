% From seed 003 (10 Parallel programming examples), lines 112-139: backward Haar transform
% REPAIR: curly quotes (’) from the PDF written as plain apostrophes
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
