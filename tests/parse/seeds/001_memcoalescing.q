% CHECK: parse-only (fragment: im, im_out are defined elsewhere)
% From seed 001 (Quasar - CUDA Support GUIDE), lines 593-598: the memory coalescing tuning parameter
function [] = __kernel__ kernel(im : mat'unchecked, im_out : mat'unchecked, pos : ivec2)
        {!tuning_param name="$param_memcoalescing"; default=true}
        im_out[pos[1],pos[0]] = im[pos[1],pos[0]]
endfunction

parallel_do(size(im_out,[1,0]),im,im_out,kernel)
