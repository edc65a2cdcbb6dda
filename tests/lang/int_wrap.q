% issue 23, finding 6: int arithmetic wraps around like two's complement (docs/language.md,
% "Integers"): 64 bits in host code, 32 in kernels, on every back end. The references are
% closed forms (2^63 wraps to -2^63, 2^64 to 0), not the operators under test.
a = 9223372036854775807
assert(a + 1 == -a - 1)
m = -a - 1
assert(-m == m)
assert(m - 1 == a)
assert(a * 2 == -2)
j = m
j /= -1
assert(j == m)
j = 2
j ^= 63
assert(j == m)
j = 2
j ^= 64
assert(j == 0)
j = -3
j ^= 3
assert(j == -27)
assert(pos2ind([4, 2^62], [2, 0]) == m)

% kernels hold ints in 32 bits: n + pos + 1 passes 2^31 - 1 for pos = 1 (as on the GPU)
y = zeros(2)
function [] = __kernel__ k(y : vec, n : int, pos : int)
  x = n + pos
  y[pos] = x + 1 > 0 ? 1 : -1
  q = -(n + 2)
  y[pos] = q < 0 ? y[pos] : y[pos] * 10
end
parallel_do(2, y, 2147483646, k)
assert(y[0] == 1)
assert(y[1] == -1)
% every int operation of a kernel wraps at 32 bits, as on the GPU (where NVRTC would otherwise
% treat the overflow as undefined): n = 2^31 - 1, m = -2^31; the references are closed forms
r = zeros(12)
function [] = __kernel__ k2(r : vec, n : int, pos : int)
  m = -n - 1
  r[0] = m * 2 == 0                 % -2^32
  r[1] = -m == m
  r[2] = n * n == 1                 % 2^62 - 2^32 + 1
  r[3] = m - 1 == n
  r[4] = abs(m) == m
  j = 65536
  j ^= 2                            % 2^32
  r[5] = j == 0
  u : ivec3 = [65536, 65536, 3]
  r[6] = prod(u) == 0               % 3 * 2^32
  s = 0
  s += n
  s += n                            % 2^32 - 2
  r[7] = s == -2
  t = 0
  for i = n - 1..n
    t += i                          % 2^32 - 3
  end
  r[8] = t == -3
  v : ivec2 = [65536, -65536]
  w = v * 32768                     % +-2^31
  r[9] = w[0] == m && w[1] == m
  x = -w
  r[10] = x[0] == m
  q = n
  q /= -1
  r[11] = q == m + 1
end
parallel_do(1, r, 2147483647, k2)
for i = 0..11
  assert(r[i] == 1)
end
% a range whose span does not fit an int64 is empty or counted without overflow
cnt = 0
for i = m..m
  cnt += 1
end
assert(cnt == 1)
print("ok")
