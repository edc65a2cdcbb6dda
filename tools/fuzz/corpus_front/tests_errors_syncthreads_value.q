% EXPECT: 1 ^tests/errors/syncthreads_value\.q:3:5: runtime error: .syncthreads. is not a value$
% syncthreads names no variable: used as a value it is an error, not a read of a slot
x = syncthreads
print x
