% Statements, assignments and commands.
x = 1; y = 2;
x += 1
x -= 1
x *= 2
x /= 2
x ^= 2
x .*= v
x ./= v
x .^= v
x &= 1
x |= 1
x ~= 1
x ^^= 1
x __= 1
[a, b] = f(x)
[s[v], s[w]] = [s[w], s[v]]
p.q = 3
y : vec'unchecked = zeros(256)
z : int
B : 'shared = transpose(A)
print "sum:", sum(y)/numel(y)
print(x)
syncthreads
syncthreads(block)
assert(x > 0)
a[0] <- (e, n)
if x > 0
  y = 1
elseif x < 0
  y = -1
else
  y = 0
end
for i = 0..2..10
  if i == 4
    continue
  endif
  break
endfor
while x < 10
  x += 1
endwhile
repeat
  x -= 1
until x <= 0
match s with
| "red" -> c = 1
| 0 ->
  c = 2
  d = 3
| _ -> c = 0
endmatch
return
