% From seed 001 (Quasar - CUDA Support GUIDE), lines 465-467: hardware texture modifiers
function [] = __kernel__ interpolate_hwtex (y : mat, x : mat'hwtex_linear'clamped, scale : scalar, pos : ivec2)
    y[pos] = x[scale * pos]
endfunction
