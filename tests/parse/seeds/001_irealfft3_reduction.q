% CHECK: parse-only (uses ifft3/irealfft3, which OpenQuasar does not implement yet)
% From seed 001 (Quasar - CUDA Support GUIDE), lines 641: a reduction with -> before the replacement
reduction x -> real(ifft3(x)) -> irealfft3(x)
