% From seed 003 (10 Parallel programming examples), lines 28-45: the Mandelbrot fractal
% REPAIR: curly quotes (’) from the PDF written as plain apostrophes
% Mandelbrot fractal with Normalized Iteration Count algorithm
function [] = __kernel__ mandelbrot_fractal(im : mat'unchecked, s : scalar, _
t : cscalar, num_it : int, pos : ivec2)
p = (float(pos) ./ size(im,0..1))-0.5
c = t+s*complex(p[1],p[0])
z = 0i
N = 2.0
for n=1..num_it
if abs(z)>N
break
endif
z = z*z + c
endfor
im[pos] = n-log2(log(abs(z))/log(N))
endfunction
x = zeros(768,768)
parallel_do(size(x),x,10,complex(-1.42),512,mandelbrot_fractal)
imshow(x,[])
