% EXPECT: 1 ^tests/errors/host_index_negative\.q:5:(9|10): runtime error: .*(range|bound|outside|index)
% the error points at the index inside the function, not at the call
function y = get(x, i)
    z = 0
    y = x[i]
endfunction
v = get([1, 2, 3], -1)
