% EXPECT: 1 ^tests/errors/recursion_runaway\.q:5:11: runtime error: call depth limit reached in 'f' after [0-9]+ nested calls: the stack is nearly full
% issue 23, finding 7: runaway recursion is a clear error (at any `ulimit -s`; with 1 MiB
% it was a SIGSEGV: tools/fault_inject.sh runs this file under `ulimit -s 1024`)
function y = f(n)
  y = 1 + f(n + 1)
end
print(f(1))
