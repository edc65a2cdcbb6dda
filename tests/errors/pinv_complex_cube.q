% EXPECT: 1 ^tests/errors/pinv_complex_cube\.q:4:[0-9]+: runtime error: pinv: expected a vector or a matrix, got ccube$
% NEEDS: libopenblas.so.0|liblapack.so.3
% pinv of a complex array of rank 3
P = pinv(complex(ones(2, 2, 2), ones(2, 2, 2)))
