% Seed 001 (CUDA guide), Example: the generic morphological filter morph_filter[T] with
% op_min, i.e. an erosion over the mask with mirror extension at the borders, against a
% host loop that computes the mirrored index by hand.

op_min = __device__ (x,y) -> min(x,y)

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

% ---- test driver ----
% mirror extension (QUASAR-NOTES.md): x[-i] = x[i]; past the end the edge sample repeats,
% n -> n-1, with period 2n
function j = mirror(i, n)
    j = abs(i)
    while j >= n
        j = j >= 2 * n ? j - 2 * n : 2 * n - 1 - j
    endwhile
endfunction

H = 10
W = 12
x = zeros(H, W, 2)
for m = 0..H-1
    for n = 0..W-1
        for k = 0..1
            x[m, n, k] = mod(17 * m + 29 * n + 31 * m * n + 7 * k, 41)
        endfor
    endfor
endfor

% a cross, and an off-center asymmetric mask that reaches past the border by two
masks = [[[0, 1, 0], [1, 1, 1], [0, 1, 0]], [[1, 1, 0], [0, 0, 0], [0, 1, 1]]]
centers = [[1, 1], [2, 0]]
for t = 0..1
    mask = masks[t, :, :]
    ctr = centers[t, :]
    y = morph_filter(x, mask, ctr, 1e9, op_min)
    assert(size(y, 0) == H && size(y, 1) == W && size(y, 2) == 2)
    for m = 0..H-1
        for n = 0..W-1
            for k = 0..1
                want = 1e9
                for a = 0..2
                    for b = 0..2
                        if mask[a, b] != 0
                            v = x[mirror(m + a - ctr[0], H), mirror(n + b - ctr[1], W), k]
                            want = min(want, v)
                        endif
                    endfor
                endfor
                assert(y[m, n, k] == want)
            endfor
        endfor
    endfor
endfor
print "morph_filter_001: ok"
