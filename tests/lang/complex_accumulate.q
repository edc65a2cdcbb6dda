% += and -= on complex arrays in kernels: compiled on both back ends as two atomic additions,
% one per part (each part's total is the serial sum's). Many threads add into few elements
% (collisions), into a 2-D array at computed indexes, out-of-range bins are dropped as for
% real arrays, and a *= (an atomic update of the whole element, also compiled:
% complex_compound.q has the other operators). The reference is a host loop over the same
% values; every value is a small dyadic rational, so each sum is exact in any order and the
% comparison is exact.

function [] = __kernel__ acc(y : cvec, x : vec, pos : int)
    z = complex(x[pos], 0.5 * x[pos] - 3)
    y[mod(pos, 7)] += z
    y[mod(pos * 3, 5)] -= complex(0.25, x[pos])
endfunction

function [] = __kernel__ acc2(Y : cmat, x : vec, pos : ivec2)
    v = x[pos[0] * 16 + pos[1]]
    Y[mod(pos[0] + pos[1], 4), mod(pos[1], 3)] += v * 1i + 1
    Y[int(v) - 100, 0] += 1   % out of range for every v here: dropped
endfunction

function [] = __kernel__ scale(y : cvec, pos : int)
    y[mod(pos, 3)] *= 1i
endfunction

function [] = main()
    n = 1000
    x = zeros(n)
    for i = 0..n-1
        x[i] = mod(i * 37, 64) * 0.125
    endfor
    y = complex(zeros(7))
    for k = 0..6
        y[k] = -77 + 77i   % poison: the kernel adds to what is there
    endfor
    r = y
    parallel_do(n, y, x, acc)
    for i = 0..n-1
        r[mod(i, 7)] = r[mod(i, 7)] + complex(x[i], 0.5 * x[i] - 3)
        r[mod(i * 3, 5)] = r[mod(i * 3, 5)] - complex(0.25, x[i])
    endfor
    for k = 0..6
        assert(real(y[k]) == real(r[k]) && imag(y[k]) == imag(r[k]))
    endfor

    Y = complex(zeros(4, 3))
    R = Y
    parallel_do([16, 16], Y, x, acc2)
    for a = 0..15
        for b = 0..15
            v = x[a * 16 + b]
            R[mod(a + b, 4), mod(b, 3)] = R[mod(a + b, 4), mod(b, 3)] + (v * 1i + 1)
        endfor
    endfor
    for a = 0..3
        for b = 0..2
            assert(real(Y[a, b]) == real(R[a, b]) && imag(Y[a, b]) == imag(R[a, b]))
        endfor
    endfor

    s = complex(ones(3))
    parallel_do(8, s, scale)   % each element times i, 3 or 2 times
    assert(real(s[0]) == 0 && imag(s[0]) == -1)   % i^3 = -i
    assert(real(s[1]) == 0 && imag(s[1]) == -1)
    assert(real(s[2]) == -1 && imag(s[2]) == 0)   % i^2 = -1
    print "complex accumulate ok"
endfunction
