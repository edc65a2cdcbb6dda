% SANITIZE_ARGS: 24 40
% Only for --target cuda (tests/gpu.sh runs this folder): seed 001's separable filter with
% syncthreads(grid) on an image of about a million threads, more than the H100 holds at once
% (and beyond the interpreter's 16384 fibers). The resident blocks loop over the launch's
% blocks in each phase between grid barriers (docs/cuda.md). Reference: host loops.
function y = gaussian_filter_separable(x, fc, n)
    function [] = __kernel__ gaussian_filter_separable(x : cube, y : cube, z : cube, fc : vec, n : int, pos : vec3)
        sum = 0.
        for i=0..numel(fc)-1
            sum = sum + x[pos + [0,i-n,0]] * fc[i]
        endfor
        z[pos] = sum
        syncthreads(grid)
        sum = 0.
        for i=0..numel(fc)-1
            sum = sum + z[pos + [i-n,0,0]] * fc[i]
        endfor
        y[pos] = sum
    endfunction
    z = uninit(size(x))
    y = uninit(size(x))
    parallel_do (size(y), x, y, z, fc, n, gaussian_filter_separable)
endfunction

% an H x W x 3 image (smaller under the sanitizer, still more threads than fit at once)
function [] = main(H : int = 600, W : int = 640)
    x = zeros(H, W, 3)
    for i = 0..H-1
        for j = 0..W-1
            for c = 0..2
                x[i, j, c] = mod(i * 7 + j * 3 + c * 11, 17)
            endfor
        endfor
    endfor
    fc = [1, 2, 4, 2, 1]
    n = 2
    y = gaussian_filter_separable(x, fc, n)
    % the filter of a separable kernel, in host loops; rows and columns outside are zero
    z = zeros(H, W, 3)
    for i = 0..H-1
        for j = 0..W-1
            for c = 0..2
                s = 0
                for k = 0..4
                    jj = j + k - n
                    if jj >= 0 && jj < W
                        s += x[i, jj, c] * fc[k]
                    endif
                endfor
                z[i, j, c] = s
            endfor
        endfor
    endfor
    bad = 0
    for i = 0..H-1
        for j = 0..W-1
            for c = 0..2
                s = 0
                for k = 0..4
                    ii = i + k - n
                    if ii >= 0 && ii < H
                        s += z[ii, j, c] * fc[k]
                    endif
                endfor
                if y[i, j, c] != s
                    bad += 1
                endif
            endfor
        endfor
    endfor
    assert(bad == 0)
    print "grid_stride: ok"
endfunction
