% EXPECT: 1 build_dtcwt: OpenQuasar does not provide this function of multirestransforms\.q
% multirestransforms.q is found in lib/ as published BLS-GSM code imports it; its
% transforms are not provided: the call names the function and the module.
import "multirestransforms.q"

J = 4
[S, S_H] = build_dtcwt(filtercoeff_farras, filtercoeff_dualfilt, J)
