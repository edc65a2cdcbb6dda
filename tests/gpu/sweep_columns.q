% !kernel_tiling with a literal grid one deep in the last of 3 dimensions (seed 000's
% dims=[128,256,1]): on CUDA a thread's tiles along that dimension are consecutive
% elements, run a column of n2 at a time (emit_cuda.c sweep_columns, for n2 = 2, 3, 4;
% n2 = 1 and 5 keep the steps of 16 tiles). Launches large enough that each copy of the
% grid runs several columns (runs starting and ending inside a column, steps where
% dimension 1 wraps and where it does not), extents no multiples of the grid. Each result is checked
% exactly against the same body in a kernel that sees its block (no tiling), outputs
% poisoned first. The tiled bodies use pos only as x[pos] (the element loop: a position's
% element is its row-major index), so the fill makes each element tell its position.
function [] = __kernel__ fill(x : cube, pos : ivec3)
    x[pos] = mod(pos[0] * 7 + pos[1] * 3 + pos[2] * 101 + int(pos[1] / 5), 256)
endfunction

function [] = __kernel__ affine(x : cube, z : cube, y : cube, pos : ivec3)
    !kernel_tiling dims=[32,64,1]; mode="global"; target="gpu"
    if x[pos] > 200
        y[pos] = -2
        return
    endif
    y[pos] = x[pos] * 3 + z[pos]
endfunction

function [] = __kernel__ affine_ref(x : cube, z : cube, y : cube, pos : ivec3, blkpos : ivec3)
    if x[pos] > 200
        y[pos] = -2
        return
    endif
    y[pos] = x[pos] * 3 + z[pos]
endfunction

function s = __kernel__ hist_cols(im : cube, h : vec'unchecked, pos : ivec3)
    !kernel_tiling dims=[128,256,1]; mode="global"; target="gpu"
    h[im[pos]] += 1
    s += im[pos] > 100
endfunction

function [] = __kernel__ hist_ref(im : cube, h : vec[int], pos : ivec3, blkpos : ivec3)
    h[im[pos]] += 1
endfunction

for n2 = [1, 2, 3, 4, 5]
    x = zeros(1000, 1100, n2)
    parallel_do(size(x), x, fill)
    z = x .* 0.5
    y = -ones(size(x))
    parallel_do(size(x), x, z, y, affine)
    r = -ones(size(x))
    parallel_do(size(x), x, z, r, affine_ref)
    assert(sum(abs(y - r)) == 0, sprintf("affine n2=%d", n2))
    h = zeros(256)
    hr = vec[int](256)
    s = parallel_do(size(x), x, h, hist_cols)
    parallel_do(size(x), x, hr, hist_ref)
    for b = 0..255
        assert(h[b] == hr[b], sprintf("hist n2=%d bin %d", n2, b))
    endfor
    assert(sum(h) == numel(x) && s == sum(hr[101..255]), sprintf("hist n2=%d", n2))
endfor
print "sweep_columns: ok"
