% A generic morphological filter (seed 001, "Example"): morph_filter[T] applies a
% __device__ operator over the pixels that a mask selects, with mirror extension at the
% borders. Here: erosion (op_min) and dilation (op_max) with a 3x3 cross; OUTPUT is the
% morphological gradient, dilation minus erosion, which outlines edges.
% Run: oq run examples/morph.q [INPUT [OUTPUT [SIZE]]]
% 'mirror is Quasar's (docs/language.md): index -1 reads 1 and index N reads N-1.
import "lib/gallery.q"

op_min = __device__ (x,y) -> min(x,y)
op_max = __device__ (x,y) -> max(x,y)

function y = morph_filter[T](x : cube[T], mask : mat[T], ctr : ivec2, init : T, morph_op : [__device__ (T, T) -> T])
    function [] = __kernel__ kernel (x : cube[T]'mirror, y, mask : mat[T]'unchecked'hwconst, ctr, init, morph_op, pos)
        {!kernel_transform enable="localwindow"}
        res = init
        for m=0..size(mask,0)-1
            for n=0..size(mask,1)-1
                if mask[m,n] != 0
                    res = morph_op(res,x[pos+[m-ctr[0],n-ctr[1],0]])
                endif
            endfor
        endfor
        y[pos] = res
    endfunction

    y = cube[T](size(x))
    parallel_do(size(x),x,y,mask,ctr,init,morph_op,kernel)
endfunction

function [] = main(input = "examples/data/chelsea.png", output = "build/examples/morph.png", size_ = 0)
    x = load_image(input, size_)
    mask = [[0, 1, 0], [1, 1, 1], [0, 1, 0]]
    eroded = morph_filter(x, mask, [1, 1], 1e9, op_min)
    dilated = morph_filter(x, mask, [1, 1], -1e9, op_max)
    imwrite(output, dilated - eroded)
    print "morph: wrote ", output
endfunction
