% linalg.q: Quasar's linear-algebra module. Its functions are built into OpenQuasar (they
%   call LAPACK and OpenBLAS on the host, cuBLAS on the GPU; docs/library.md, "Linear
%   algebra"): inv, det, solve, mldivide, chol, lu, qr, svd, symeig, eig, pinv, diag, eye,
%   kron, trace, norm, seed 001's blas_* functions, and the matrix product '*', transpose,
%   sum, prod, cumsum, reshape and repmat.
% import "linalg.q" finds this file in OpenQuasar's lib/ folder, so published programs that
% import it run unchanged; built-ins are visible everywhere, so it defines nothing itself.
