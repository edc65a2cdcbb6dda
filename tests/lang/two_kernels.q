% Two small kernels checked against host loops; tools/fault_inject.sh runs it against a
% damaged kernel cache (a foreign entry swaps the two kernels' files: wrong answers before).
n = 37
x = zeros(n)
y = zeros(n)
function [] = __kernel__ square(x : vec, pos : int)
  x[pos] = pos * pos + 1
end
function [] = __kernel__ triple(y : vec, x : vec, pos : int)
  y[pos] = 3 * x[pos] - pos
end
parallel_do(n, x, square)
parallel_do(n, y, x, triple)
k = 0
while k < n
  assert(x[k] == k * k + 1)
  assert(y[k] == 3 * (k * k + 1) - k)
  k += 1
end
print("ok")
