function [] = __kernel__ k(x : vec'unchecked'bogus, pos : int)
    x[pos] = 0
endfunction
