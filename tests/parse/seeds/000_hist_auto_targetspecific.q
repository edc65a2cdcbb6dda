% From seed 000 (Tutorial 6: Advanced GPU programming), lines 122-136: the macro used as !hist_profile
function y = hist_auto_targetspecific(im)
    y : vec'unchecked = zeros(256)

    !parallel for
    for m=0..size(im,0)-1
        for n=0..size(im,1)-1
            for k=0..size(im,2)-1
                !hist_profile
                v = im[m,n,k]
                y[v] += 1
            endfor
        endfor
    endfor

endfunction
