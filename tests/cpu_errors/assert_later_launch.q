% EXPECT: 1 ^tests/cpu_errors/assert_later_launch\.q:10:5: runtime error: assertion failed: r < 3$
% issue 23, finding 1: a compiled kernel reports an error on a LATER launch than its first
% (the parallel loop over ch runs once per r; r = 3 fails). The error sites' texts must
% outlive the specialization they were made with (a use-after-free under ASan before).
z = zeros(4)
w = zeros(4)
for r = 0..3
  w[r] = r
  for ch = 0..3
    assert(r < 3)
    z[ch] = r
  end
end
