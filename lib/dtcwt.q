% dtcwt.q: Quasar's dual-tree complex wavelet transform module (Selesnick's filters).
% import "dtcwt.q" loads this file from OpenQuasar's lib/ folder. OpenQuasar does not
% provide the transform yet (the filter tables are not in the material at hand): each
% function published programs call stops the program with an error naming the module.
% Published use: w = dtcwt2d(img, w1, w2, J), w[j][r,c][i] (J scales, 2 x 2 trees,
% 3 orientations), img = idtcwt2d(w, w1, w2, J), w1 = filtercoeff_farras,
% w2 = filtercoeff_selcw[3,1].

function y = dtcwt_not_provided(name : string)
    error(name, ": OpenQuasar does not provide this function of dtcwt.q yet (docs/library.md)")
    y = 0
endfunction

function w = dtcwt2d(x, w1, w2, J)
    w = dtcwt_not_provided("dtcwt2d")
endfunction

function y = idtcwt2d(w, w1, w2, J)
    y = dtcwt_not_provided("idtcwt2d")
endfunction

function c = filtercoeff_farras()
    c = dtcwt_not_provided("filtercoeff_farras")
endfunction

function c = filtercoeff_selcw()
    c = dtcwt_not_provided("filtercoeff_selcw")
endfunction

function c = filtercoeff_dualfilt()
    c = dtcwt_not_provided("filtercoeff_dualfilt")
endfunction
