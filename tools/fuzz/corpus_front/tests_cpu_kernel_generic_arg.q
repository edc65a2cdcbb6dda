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

% zeros(N) of a generic N (and of a literal) is a vector in compiled kernels; each N its own
% specialization
function [] = __kernel__ window[N : int](y : vec, pos : int)
    w = zeros(N)
    for i = 0..N-1
        w[i] = pos + i
    endfor
    u = zeros(3)
    u[1] = 2
    y[pos] = sum(w) + u[1] + u[0]
endfunction
for n = [2, 4]
    y = ones(50) * -1
    parallel_do(50, y, window[n])
    i = 0
    while i < 50
        assert(y[i] == n * i + n * (n - 1) / 2 + 2)
        i += 1
    endwhile
endfor
print "ok"
