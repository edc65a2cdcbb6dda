% multirestransforms.q: Quasar's multiresolution transforms module (wavelets, dual-tree
% complex wavelets, shearlets, steerable pyramids). import "multirestransforms.q" loads
% this file from OpenQuasar's lib/ folder. OpenQuasar does not provide the transforms yet
% (their filter tables are not in the material at hand): each function published programs
% call stops the program with an error naming the module. Published use: a transform
% pair [S, S_H] = build_dwt(db8, J), build_dtcwt(filtercoeff_farras,
% filtercoeff_dualfilt, J), build_energyweighted_dst2d(sz, K, J), build_stp(sz, K, J);
% w = S(img), img = S_H(w), bands = lincell(w).
import "dtcwt.q"

function y = multires_not_provided(name : string)
    error(name, ": OpenQuasar does not provide this function of multirestransforms.q yet (docs/library.md)")
    y = 0
endfunction

function [S, S_H] = build_dwt(filters, J)
    S = multires_not_provided("build_dwt")
    S_H = S
endfunction

function [S, S_H] = build_dtcwt(w1, w2, J)
    S = multires_not_provided("build_dtcwt")
    S_H = S
endfunction

function [S, S_H] = build_energyweighted_dst2d(sz, K, J)
    S = multires_not_provided("build_energyweighted_dst2d")
    S_H = S
endfunction

function [S, S_H] = build_stp(sz, K, J)
    S = multires_not_provided("build_stp")
    S_H = S
endfunction

function c = db8()
    c = multires_not_provided("db8")
endfunction
