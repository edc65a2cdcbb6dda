% EXPECT: 1 ^tests/errors/kernel_assign_enclosing\.q:7:5: error: a kernel cannot assign 's', a variable of the enclosing function
% issue 23, finding 9: a kernel updating a variable of its enclosing function ran silently
% in the interpreter (--target cpu) and raced; it is an error before the program runs
function [] = main()
  s = 0
  function [] = __kernel__ k(pos : int)
    s += 1
  end
  parallel_do(4, k)
  print(s)
end
