% EXPECT: 1 ^tests/errors/out_of_memory\.q:7:3: runtime error: out of memory
% issue 23, finding 9: an allocation that fails deep in the runtime names the statement
% (it said only "oq: runtime error: out of memory")
function y = big(n)
  x = 1
  % 4e15 bytes: more than any machine has, less than "array too large"
  y = zeros(n, n, n)
end
z = big(100000)
