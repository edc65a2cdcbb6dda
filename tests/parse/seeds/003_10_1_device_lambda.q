% CHECK: parse-only (the seed reads y where it means x (a bug of the document; tests/seeds_run runs the repaired program))
% From seed 003 (10 Parallel programming examples), lines 19-22: __device__ lambda called from a __kernel__ lambda
% REPAIR: curly quotes (’) from the PDF written as plain apostrophes
gamma_correction = __device__ (x:scalar,gamma:scalar) -> _
255*(y*(1.0/255))^gamma
gamma_correction_kernel = __kernel__ (y:cube'unchecked, gamma:scalar, pos:ivec3) -> _
y[pos] = gamma_correction(x[pos], gamma)
