% A generic kernel reads its generic argument (seed 001's gaussian_filter[N] does): the
% compiled back ends load it like a captured value. Until session 11 the C compiler
% rejected the generated code ('cap0' undeclared).
function [] = __kernel__ scale[N : int](y : vec, pos : int)
    y[pos] = N * pos + 1
endfunction
for n = [3, 5]
    y = ones(100) * -1   % poisoned
    parallel_do(100, y, scale[n])
    i = 0
    while i < 100
        assert(y[i] == n * i + 1)
        i += 1
    endwhile
endfor
print "ok"
