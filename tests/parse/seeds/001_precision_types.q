% CHECK: parse-only (uses typename, which OpenQuasar does not implement yet)
% From seed 001 (Quasar - CUDA Support GUIDE), lines 132-134: matrices of a given precision
    A_half = typename(mat[scalar'half])(100,100)
    A_single = typename(mat[scalar'single])(100,100)
    A_double = typename(mat[scalar'double])(100,100)
