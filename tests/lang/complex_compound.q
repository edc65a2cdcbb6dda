% Compound assignments other than += and -= on complex arrays in kernels (*=, /=, ^=, .*=,
% ./=, .^=): compiled on both back ends as an atomic update of the whole element (a
% compare-and-swap of 8 bytes, of 16 on sm_90, or a striped lock for 16 bytes in C), unless
% it runs in the interpreter (tests/run.sh checks with --verbose that none does, in single and
% double precision). Many threads update few elements (collisions), one thread its own
% element, a 2-D array, and += beside *= on one element (a lost update would show). Every
% value is a power of two times a Gaussian integer, so each product and quotient is exact
% and, products of the same factors commuting, the result does not depend on the order.
% The references are serial host `while` loops.

function z = factor(k : int)   % exact factors: 1i, 2, 0.5, 1+1i, -1, 1-1i
    z = 1i
    if k == 1
        z = complex(2, 0)
    elseif k == 2
        z = complex(0.5, 0)
    elseif k == 3
        z = 1 + 1i
    elseif k == 4
        z = complex(-1, 0)
    elseif k == 5
        z = 1 - 1i
    endif
endfunction

function z = divisor(k : int)   % exact divisors: 2, 1i, 1+1i, -0.5
    z = complex(2, 0)
    if k == 1
        z = 1i
    elseif k == 2
        z = 1 + 1i
    elseif k == 3
        z = complex(-0.5, 0)
    endif
endfunction

function [] = __kernel__ mul(y : cvec, f : cvec, pos : int)
    y[mod(pos, 5)] *= f[mod(pos * 7, 6)]
endfunction

function [] = __kernel__ div(y : cvec, d : cvec, pos : int)
    y[mod(pos, 4)] /= d[mod(pos * 5, 4)]
endfunction

function [] = __kernel__ emul_ediv(y : cvec, f : cvec, pos : int)
    if mod(pos, 2) == 0
        y[mod(pos, 3)] .*= f[mod(pos, 6)]
    else
        y[mod(pos, 3)] ./= 1i
    endif
endfunction

% exponents 2 and 3: (z^a)^b == z^(a b), so the order does not matter either
function [] = __kernel__ powers(y : cvec, pos : int)
    if pos < 4
        y[0] ^= 2 + mod(pos, 2)
    else
        y[1 + mod(pos, 2)] .^= 2
    endif
endfunction

function [] = __kernel__ own(y : cvec, z : cvec, w : cvec, pos : int)
    y[pos] *= z[pos]
    y[pos] /= w[pos]
endfunction

function [] = __kernel__ own2(Y : cmat, Z : cmat, pos : ivec2)
    Y[pos] *= Z[pos] + 1i
endfunction

function [] = __kernel__ mul2(Y : cmat, f : cvec, pos : ivec2)
    Y[mod(pos[0], 2), mod(pos[1], 3)] *= f[mod(pos[0] * 3 + pos[1], 6)]
endfunction

% += beside *= 1 and /= 1 on one element: the sum of the additions, if none is lost (with
% 30000 threads, += outside the lock of double-precision C lost one in about a third of the
% runs on 2 cores)
function [] = __kernel__ mixed(y : cvec, pos : int)
    if mod(pos, 3) == 0
        y[0] += 1
    elseif mod(pos, 3) == 1
        y[0] *= 1
    else
        y[0] /= 1
    endif
    y[1] -= 1i
    y[1] *= 1
endfunction

% the value of `y[e] *= 2` as each thread stored it
function [] = __kernel__ values(y : cvec, r : cvec, pos : int)
    r[pos] = (y[mod(pos, 3)] *= 2)
endfunction

function [] = same(a : cvec, b : cvec)
    assert(numel(a) == numel(b))
    i = 0
    while i < numel(a)
        assert(real(a[i]) == real(b[i]) && imag(a[i]) == imag(b[i]))
        i += 1
    endwhile
endfunction

function [] = main()
    f = complex(zeros(6))
    d = complex(zeros(4))
    k = 0
    while k < 6
        f[k] = factor(k)
        if k < 4
            d[k] = divisor(k)
        endif
        k += 1
    endwhile

    % *=: 600 threads into 5 elements, each factor 20 times per element
    n = 600
    y = complex(zeros(5))
    r = complex(zeros(5))
    k = 0
    while k < 5
        y[k] = complex(k - 2, 1)   % poison: a kernel that stores nothing keeps these
        r[k] = y[k]
        k += 1
    endwhile
    parallel_do(n, y, f, mul)
    i = 0
    while i < n
        r[mod(i, 5)] = r[mod(i, 5)] * f[mod(i * 7, 6)]
        i += 1
    endwhile
    same(y, r)
    assert(real(y[0]) != -2 || imag(y[0]) != 1)   % the kernel did change y

    % /=: 400 threads into 4 elements
    n = 400
    y = complex(ones(4)) * (3 - 5i)
    r = copy(y)
    parallel_do(n, y, d, div)
    i = 0
    while i < n
        r[mod(i, 4)] = r[mod(i, 4)] / d[mod(i * 5, 4)]
        i += 1
    endwhile
    same(y, r)

    % .*= and ./= together on the same elements (both multiply: 1/1i == -1i)
    n = 300
    y = complex(ones(3)) * (1 + 2i)
    r = copy(y)
    parallel_do(n, y, f, emul_ediv)
    i = 0
    while i < n
        if mod(i, 2) == 0
            r[mod(i, 3)] = r[mod(i, 3)] * f[mod(i, 6)]
        else
            r[mod(i, 3)] = r[mod(i, 3)] / 1i
        endif
        i += 1
    endwhile
    same(y, r)

    % ^= and .^=: (1+1i)^(2*3*2*3) and (-1+1i)^(2^k)
    n = 12
    y = complex(zeros(3))
    y[0] = 1 + 1i
    y[1] = -1 + 1i
    y[2] = 1 - 1i
    r = copy(y)
    parallel_do(n, y, powers)
    i = 0
    while i < n
        if i < 4
            r[0] = r[0] ^ (2 + mod(i, 2))
        else
            r[1 + mod(i, 2)] = r[1 + mod(i, 2)] ^ 2
        endif
        i += 1
    endwhile
    same(y, r)
    assert(real(y[0]) == -262144 && imag(y[0]) == 0)   % (1+i)^36 = (2i)^18

    % each thread its own element
    n = 257
    y = complex(zeros(n))
    z = complex(zeros(n))
    w = complex(zeros(n))
    i = 0
    while i < n
        y[i] = complex(mod(i, 13) * 0.25 - 1, mod(i * 3, 7) - 3)
        z[i] = complex(mod(i, 5) - 2, mod(i, 3) * 0.5)
        w[i] = divisor(mod(i, 4))
        i += 1
    endwhile
    r = copy(y)
    parallel_do(n, y, z, w, own)
    i = 0
    while i < n
        r[i] = r[i] * z[i] / w[i]
        i += 1
    endwhile
    same(y, r)

    % 2-D: own elements, then colliding ones
    Y = complex(zeros(6, 10))
    Z = complex(zeros(6, 10))
    a = 0
    while a < 6
        b = 0
        while b < 10
            Y[a, b] = complex(a - 2, b * 0.5)
            Z[a, b] = complex(b - a, 1)
            b += 1
        endwhile
        a += 1
    endwhile
    R = copy(Y)
    parallel_do(size(Y), Y, Z, own2)
    a = 0
    while a < 6
        b = 0
        while b < 10
            R[a, b] = R[a, b] * (Z[a, b] + 1i)
            assert(real(Y[a, b]) == real(R[a, b]) && imag(Y[a, b]) == imag(R[a, b]))
            b += 1
        endwhile
        a += 1
    endwhile
    Y = complex(ones(2, 3)) * (2 - 1i)
    R = copy(Y)
    parallel_do([12, 18], Y, f, mul2)
    a = 0
    while a < 12
        b = 0
        while b < 18
            R[mod(a, 2), mod(b, 3)] = R[mod(a, 2), mod(b, 3)] * f[mod(a * 3 + b, 6)]
            b += 1
        endwhile
        a += 1
    endwhile
    a = 0
    while a < 2
        b = 0
        while b < 3
            assert(real(Y[a, b]) == real(R[a, b]) && imag(Y[a, b]) == imag(R[a, b]))
            b += 1
        endwhile
        a += 1
    endwhile

    % += beside *= on one element
    n = 30000
    y = complex(zeros(2))
    parallel_do(n, y, mixed)
    assert(real(y[0]) == 10000 && imag(y[0]) == 0)
    assert(real(y[1]) == 0 && imag(y[1]) == -30000)

    % the values stored: element e's threads saw 2, 4, ..., 2^15 (times 1+1i), each once
    n = 45
    y = complex(ones(3)) * (1 + 1i)
    v = complex(ones(n)) * -7   % poison
    parallel_do(n, y, v, values)
    e = 0
    while e < 3
        assert(real(y[e]) == 32768 && imag(y[e]) == 32768)
        s = 0
        i = e
        while i < n
            x = real(v[i])
            assert(imag(v[i]) == x && x >= 2 && x <= 32768 && 2 ^ round(log2(x)) == x)
            s += x
            i += 3
        endwhile
        assert(s == 65534)   % 15 distinct powers 2..2^15: a repeat would carry
        e += 1
    endwhile
    print "complex compound ok"
endfunction
