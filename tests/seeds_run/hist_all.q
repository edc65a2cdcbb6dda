% Seed 000 (Tutorial 6: Advanced GPU programming): the three implementations side by side, as the seed's main() compares them.
% The seed code verbatim (the stray `}` that ends the !kernel_tiling lines is in the seed),
% then a driver that compares with a plain host count on a generated 64x48x3 image.

function y = hist_naive(im : cube)
    y = zeros(256)
    for m=0..size(im,0)-1
        for n=0..size(im,1)-1
            for k=0..size(im,2)-1
                v = im[m,n,k]
                y[v] += 1
            endfor
        endfor
    endfor
endfunction

function y = hist_shared(im : cube)
    function [] = __kernel__ kernel (im : cube, y : vec, pos : ivec3, blkpos : ivec3, blkdim : ivec3)
        nthreads = 4
        y_sh : mat = shared(256,4)
        % copy the value of y to the shared memory
        cnt = prod(blkdim)
        ind = pos2ind(blkdim, blkpos)
        for i = ind..cnt..numel(y_sh)-1
            y_sh[ind2pos(size(y_sh), i)] = 0.0
        endfor
        syncthreads

        v = im[pos]
        threadid = mod(ind,nthreads)
        y_sh[v, threadid] += 1

        syncthreads
        for i = ind..cnt..256-1
            y[i] += sum(y_sh[i,0..3])
        endfor
    endfunction        

    y = zeros(256)
    parallel_do(size(im,0..2),im,y,kernel)

endfunction

function y = hist_auto(im)
    y : vec'unchecked = zeros(256)
    !parallel for
    for m=0..size(im,0)-1
        for n=0..size(im,1)-1
            for k=0..size(im,2)-1
                !kernel_transform enable="sharedmemcaching"
                !kernel_arg name=y; type="inout"; access="shared"; op="+="; cache_slices=y[:]; numel=256
                !kernel_tiling dims=[128,256,1]; mode="global"; target="gpu"}               
                v = im[m,n,k]
                y[v] += 1
            endfor
        endfor
    endfor

endfunction

% ---- test driver ----
% a 64x48x3 test image with integer values 0..255
function im = test_image()
    im = zeros(64, 48, 3)
    for m = 0..63
        for n = 0..47
            for k = 0..2
                im[m, n, k] = mod(7 * m * m + 13 * n + 101 * k + m * n, 256)
            endfor
        endfor
    endfor
endfunction

% the reference: a plain count
function h = host_count(im)
    h = zeros(256)
    for m = 0..size(im, 0)-1
        for n = 0..size(im, 1)-1
            for k = 0..size(im, 2)-1
                h[im[m, n, k]] = h[im[m, n, k]] + 1
            endfor
        endfor
    endfor
endfunction

function [] = check_hist(y, ref, total)
    assert(numel(y) == 256)
    s = 0
    for b = 0..255
        assert(y[b] == ref[b])
        s += y[b]
    endfor
    assert(s == total)
endfunction

function [] = main()
    im = test_image()
    y1 = hist_naive(im)
    y2 = hist_auto(im)
    y3 = hist_shared(im)
    ref = host_count(im)
    check_hist(y1, ref, numel(im))
    check_hist(y2, ref, numel(im))
    check_hist(y3, ref, numel(im))
    % the seed prints sum(y)/numel(im): every pixel is counted once
    assert(sum(y1) / numel(im) == 1 && sum(y2) / numel(im) == 1 && sum(y3) / numel(im) == 1)
    print "hist_all: ok"
endfunction
