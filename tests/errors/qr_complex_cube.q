% EXPECT: 1 ^tests/errors/qr_complex_cube\.q:4:[0-9]+: runtime error: qr: expected a vector or a matrix, got ccube$
% NEEDS: libopenblas.so.0|liblapack.so.3
% qr of a complex array of rank 3
[Q, R] = qr(complex(ones(2, 2, 2), ones(2, 2, 2)))
