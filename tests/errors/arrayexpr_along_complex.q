% EXPECT: 1 ^tests/errors/arrayexpr_along_complex\.q:6:5: (runtime )?error: max: complex numbers have no order
% Complex sums along a dimension run as kernels (cpu, cuda); max of complex values stays
% the runtime's, with its message.
z = complex(rand(40, 40), rand(40, 40))
s = sum(z * 2, 0)
m = max(z * 2, [], 0)
