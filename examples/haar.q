% The 2-D Haar wavelet transform in place, by lifting (seed 003, section 10.4): SCALES
% levels forward, written as an image, then backward, which gives the input back
% exactly (integer data, no normalization).
% Run: oq run examples/haar.q [INPUT [OUTPUT [OUTPUT_BACK [SIZE [SCALES]]]]]
% OUTPUT holds the coefficients as imwrite stores them (rounded, clamped to 0..255): the
% coarse image in the top-left corner, the positive part of the details elsewhere.
% The image sides must be multiples of 2^SCALES: lib/gallery.q crops them to multiples of 8.
import "lib/gallery.q"

function [] = haar_fw(x, num_scales)
    function [] = __kernel__ hor_haar_fw_kernel(x : cube'unchecked, _
            y : cube'unchecked, j : int, pos : ivec3)
        n = size(x,1)/2^(j+1)
        if mod(pos[1],2)==0
            [a, b] = [x[pos], x[pos+[0,1,0]]]
            y[pos[0],pos[1]/2,pos[2]]=0.5*(a+b)
            y[pos[0],pos[1]/2+n,pos[2]]=a-b
        endif
    endfunction
    function [] = __kernel__ ver_haar_fw_kernel(x : cube'unchecked, _
            y : cube'unchecked, j : int, pos : ivec3)
        m = size(x,0)/2^(j+1)
        if mod(pos[0],2)==0
            [a, b] = [x[pos], x[pos+[1,0,0]]]
            y[pos[0]/2,pos[1],pos[2]]=0.5*(a+b)
            y[pos[0]/2+m,pos[1],pos[2]]=a-b
        endif
    endfunction
    tmp = zeros(size(x))
    for j=0..num_scales-1
        sz = [size(x,0)/2^j,size(x,1)/2^j,size(x,2)]
        parallel_do(sz,x,tmp,j,hor_haar_fw_kernel)
        parallel_do(sz,tmp,x,j,ver_haar_fw_kernel)
    endfor
endfunction

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

function [] = main(input = "examples/data/chelsea.png", output = "build/examples/haar.png", _
        output_back = "build/examples/haar_back.png", size_ = 0, scales = 3)
    x = load_image(input, size_)
    haar_fw(x, scales)
    imwrite(output, x)
    haar_bw(x, scales)
    imwrite(output_back, x)
    print "haar: wrote ", output, " and ", output_back
endfunction
