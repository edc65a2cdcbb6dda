% EXPECT: 1 ^tests/cpu_errors/checked_huge_index\.q:6:5: runtime error: index \[9223372036854775807\] out of range for array 'y' of size \[8\] in kernel 'bins'
% A 'checked index from a scalar too large for an int64: compiled code tests it with one
% cvtt (INT64_MIN for such values), and the report converts it exactly, as the
% interpreter does (the largest int64)
function [] = __kernel__ bins(x : vec, y : vec'checked, pos : int)
    y[x[pos]] += 1
endfunction

x = zeros(100)
x[57] = 1e30
y = zeros(8)
parallel_do(numel(x), x, y, bins)
print "not reached"
