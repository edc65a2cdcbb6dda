% bench/xform/loops.q: seed 000's hist_naive and hist_auto as the seed writes them (host loops
% that oq turns into kernels), on the images of gpu.q; run with
%   PROG=bench/xform/loops.q bash bench/xform/run.sh
% (the labels are gpu.q's, so the ratios are against the same references).

function [] = __kernel__ fill(im : cube, kind : int, pos : ivec3)
    W = size(im, 1)
    i = (pos[0] * W + pos[1]) * 3 + pos[2]
    if kind == 0
        v = 128 + 100 * sin(pos[0] * 0.0011 + pos[2]) * cos(pos[1] * 0.0007) + 20 * sin(pos[0] * 0.05 + pos[1] * 0.03)
        im[pos] = floor(max(0, min(255, v)))
    elseif kind == 1
        x = mod(i, 65521)
        im[pos] = mod(mod(x * 32749 + mod(int(i / 65521), 65521) * 7, 65521), 256)
    else
        im[pos] = 77
    endif
endfunction

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

function y = hist_auto(im)
    y : vec'unchecked = zeros(256)
    !parallel for
    for m=0..size(im,0)-1
        for n=0..size(im,1)-1
            for k=0..size(im,2)-1
                !kernel_transform enable="sharedmemcaching"
                !kernel_arg name=y; type="inout"; access="shared"; op="+="; cache_slices=y[:]; numel=256
                !kernel_tiling dims=[128,256,1]; mode="global"; target="gpu"
                v = im[m,n,k]
                y[v] += 1
            endfor
        endfor
    endfor
endfunction

function [] = hists(h, w, kind, reps)
    im = zeros(h, w, 3)
    parallel_do(size(im), im, kind, fill)
    label = sprintf("%dx%dx3 kind %d", w, h, kind)
    for r = 1..reps
        tic()
        y1 = hist_naive(im)
        toc(sprintf("hist_naive %s", label))
    endfor
    for r = 1..reps
        tic()
        y2 = hist_auto(im)
        toc(sprintf("hist_auto %s", label))
    endfor
    if numel(im) < 16777216
        for b = 0..255
            assert(y1[b] == y2[b])
        endfor
    endif
    print "checksum ", label, " ", sum(y1), " ", sum(y2), " ", y1[77]
endfunction

function [] = main()
    for kind = 0..2
        hists(1080, 1920, kind, 20)
    endfor
    for kind = 0..2
        hists(8192, 8192, kind, 10)
    endfor
    hists(512, 512, 0, 1000)
endfunction
