% issue 23, finding 2: Inf, 1e999 and 1e999i inside a kernel (the CPU back end printed the
% C literal "inf", which does not compile). Checked against the same values on the host.
y = zeros(6)
z = complex(zeros(2))
function [] = __kernel__ k(y : vec, z : cvec, pos : int)
  y[0] = Inf
  y[1] = -Inf
  y[2] = 1e999
  y[3] = -1e999
  y[4] = isnan(0 * Inf) ? 1 : 0
  y[5] = pos == 0 && 3 < Inf ? 1 : 0
  z[0] = 1e999i
  z[1] = -1e999i
end
parallel_do(1, y, z, k)
assert(y[0] == Inf && y[0] > 1e38)
assert(y[1] == -Inf)
assert(y[2] == Inf)
assert(y[3] == -Inf)
assert(y[4] == 1)
assert(y[5] == 1)
assert(imag(z[0]) == Inf && real(z[0]) == 0)
assert(imag(z[1]) == -Inf)
print("ok")
