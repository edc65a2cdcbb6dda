% issue 23, finding 5: an index of NaN is outside every array. In a kernel (no 'checked)
% a write there is dropped and a read gives 0, on every back end; the CPU back end wrote
% y[0] (the C compiler folded the conversion of a NaN constant to 0).
y = ones(4)
function [] = __kernel__ k(y : vec, pos : int)
  y[NaN] += 1
  y[0 / 0] = 5
  a = y[NaN]
  y[1] = a + 7
  y[1e30] = 9
  y[-1e30] = 9
end
parallel_do(1, y, k)
assert(y[0] == 1)
assert(y[1] == 7)
assert(y[2] == 1 && y[3] == 1)
print("ok")
