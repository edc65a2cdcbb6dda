% issue 23, finding 7: legitimate recursion 10000 deep runs at the default 8 MiB stack (the
% depth limit follows the real stack); compared with the closed form n (n + 1) / 2.
function y = tri(n)
  if n == 0
    y = 0
  else
    y = n + tri(n - 1)
  end
end
assert(tri(10000) == 10000 * 10001 / 2)
print("ok")
