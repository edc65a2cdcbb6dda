% Complex arithmetic and functions at ordinary and special values (zero, huge, tiny,
% infinite, NaN parts) in a kernel: checked against the host where both inputs are finite
% and the host's result is; every result is printed with all its digits, so that
% tests/run.sh can compare TinyCC's build (complex numbers as structs, cpu_tcc.c) with the
% C compiler's (_Complex) exactly, in both precisions. A NaN prints without its sign: the
% sign of the NaN that an operation on two NaNs gives follows the compiler's choice of
% operand order (IEEE 754 leaves it open).

function ok = close(a, b)
    ok = abs(a - b) <= 1e-4 * (1 + abs(b))
endfunction

function [] = __kernel__ cplx_all(v : cvec, out : cmat, re : vec, pos : ivec2)
    a = v[pos[0]]
    b = v[pos[1]]
    r = pos[0] * numel(v) + pos[1]
    out[r, 0] = a * b
    out[r, 1] = a / b
    out[r, 2] = a + b * 2
    out[r, 3] = a - conj(b)
    out[r, 4] = a ^ 2
    out[r, 5] = a ^ -3
    out[r, 6] = b ^ 0.5
    out[r, 7] = exp(a * 0.001)
    out[r, 8] = log(b)
    out[r, 9] = sqrt(a)
    out[r, 10] = -a
    out[r, 11] = sin(a * 0.001) * cos(b * 0.001)
    out[r, 12] = a ^ b
    out[r, 13] = real(b)
    re[r] = abs(a) + angle(b) * 100 + (a == b ? 1000 : 0) + (a != 0 ? 10000 : 0) + (isfinite(a * b) ? 100000 : 0)
endfunction

v = [complex(1, 2), complex(-3, 0.5), complex(0, 0), complex(1e30, 1e30), complex(1e-30, -1e-30),
     complex(Inf, 0), complex(NaN, 1), complex(0, -Inf), complex(2, -7)]
n = numel(v)
K = 14
out = cmat(n * n, K)
re = zeros(n * n)
parallel_do([n, n], v, out, re, cplx_all)

function y = unsigned_nan(x)
    y = isnan(x) ? abs(x) : x
endfunction

function ok = finite(z)
    ok = isfinite(real(z)) && isfinite(imag(z))
endfunction

checked = 0
for i = 0..n-1
    for j = 0..n-1
        a = v[i]
        b = v[j]
        r = i * n + j
        ref = [a * b, a / b, a + b * 2, a - conj(b), a ^ 2, a ^ -3, b ^ 0.5, exp(a * 0.001), log(b),
               sqrt(a), -a, sin(a * 0.001) * cos(b * 0.001), a ^ b, real(b)]
        for k = 0..K-1
            printf("%d %d %d: %.9g %.9g\n", i, j, k, unsigned_nan(real(out[r, k])), unsigned_nan(imag(out[r, k])))
            if finite(a) && finite(b) && finite(ref[k]) && abs(ref[k]) < 1e25 && abs(ref[k]) > 1e-25
                if !close(out[r, k], ref[k])
                    print "element ", i, " ", j, " result ", k, ": ", out[r, k], " expected ", ref[k]
                endif
                assert(close(out[r, k], ref[k]))
                checked += 1
            endif
        endfor
        printf("%d %d: %.9g\n", i, j, unsigned_nan(re[r]))
    endfor
endfor
assert(checked > 100)
print "complex_tiers: ok"
