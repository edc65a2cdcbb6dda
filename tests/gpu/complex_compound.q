% Complex *=, /= and += under heavy contention (tests/lang/complex_compound.q at a size only
% the GPU runs quickly): 3 * 2^20 threads on one element (+= 1 beside *= 1 and /= 1: a lost
% update changes the count), 8 * 100001 threads turning 8 elements by 1i (i^100001 = i), and
% 2^20 threads turning 4 elements by 1i and back (/= 1i) in equal numbers (unchanged). Every
% value is exact, so the closed forms hold in any order; tests/gpu.sh runs it in single and
% double precision.

function [] = __kernel__ mixed(y : cvec, pos : int)
    if mod(pos, 3) == 0
        y[0] += 1
    elseif mod(pos, 3) == 1
        y[0] *= 1
    else
        y[0] /= 1
    endif
endfunction

function [] = __kernel__ turn(y : cvec, pos : int)
    y[mod(pos, 8)] *= 1i
endfunction

function [] = __kernel__ back(y : cvec, pos : int)
    if mod(int(pos / 4), 2) == 0
        y[mod(pos, 4)] *= 1i
    else
        y[mod(pos, 4)] /= 1i
    endif
endfunction

function [] = main()
    n = 3 * 1048576
    y = complex(zeros(1))
    parallel_do(n, y, mixed)
    assert(real(y[0]) == 1048576 && imag(y[0]) == 0)

    y = complex(zeros(8))
    for k = 0..7
        y[k] = complex(k + 1, -k)
    endfor
    parallel_do(8 * 100001, y, turn)
    for k = 0..7
        assert(real(y[k]) == k && imag(y[k]) == k + 1)   % (a + bi) i = -b + ai
    endfor

    y = complex(ones(4)) * (3 + 5i)
    parallel_do(1048576, y, back)
    for k = 0..3
        assert(real(y[k]) == 3 && imag(y[k]) == 5)
    endfor
    print "complex compound (large) ok"
endfunction
