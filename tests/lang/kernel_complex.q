% Complex numbers in kernels: arithmetic, the math built-ins, comparisons, complex arrays
% read and written (+= and -= on complex arrays: tests/lang/complex_accumulate.q). The
% reference is the same formula evaluated by the host for each element; results agree to
% single-precision rounding.

function ok = close(a, b)
    ok = abs(a - b) <= 1e-4 * (1 + abs(b))
endfunction

function z = __device__ mix(a : cscalar, b : cscalar)
    z = a * b - conj(a) / b + a ^ 2 - b ^ 0.5
endfunction

function [] = __kernel__ cplx_ops(z : cvec, w : cvec, out : cmat, flags : vec, pos : int)
    a = z[pos]
    b = w[pos]
    out[pos, 0] = a + b
    out[pos, 1] = a - b
    out[pos, 2] = a * b
    out[pos, 3] = a / b
    out[pos, 4] = exp(a)
    out[pos, 5] = log(b)
    out[pos, 6] = sqrt(a)
    out[pos, 7] = sin(a) + cos(b)
    out[pos, 8] = tan(a * 0.25)
    out[pos, 9] = sinh(a) - cosh(b) + tanh(b * 0.5)
    out[pos, 10] = complex(abs(a), angle(b))
    out[pos, 11] = complex(real(a) * 2, imag(b) * 3) + conj(a)
    out[pos, 12] = a ^ 3 + b ^ -2
    out[pos, 13] = mix(a, b)
    out[pos, 14] = -a + 2 * b - 1.5
    flags[pos] = (a == b ? 1 : 0) + (a != 0 ? 2 : 0) + (isfinite(a) ? 4 : 0)
endfunction

function z = host_mix(a, b)
    z = a * b - conj(a) / b + a ^ 2 - b ^ 0.5
endfunction

N = 64
z = cvec(N)
w = cvec(N)
for i = 0..N-1
    z[i] = complex(mod(i * 7, 13) * 0.25 - 1.5, mod(i * 5, 11) * 0.2 - 1)
    w[i] = complex(mod(i * 3, 7) * 0.5 - 1.25, mod(i, 4) + 0.5)
endfor
w[5] = z[5]
out = cmat(N, 15)
for i = 0..N-1
    for k = 0..14
        out[i, k] = complex(-99, -99)
    endfor
endfor
flags = ones(N) * -1
parallel_do(N, z, w, out, flags, cplx_ops)

for i = 0..N-1
    a = z[i]
    b = w[i]
    ref = [a + b, a - b, a * b, a / b, exp(a), log(b), sqrt(a), sin(a) + cos(b), tan(a * 0.25),
           sinh(a) - cosh(b) + tanh(b * 0.5), complex(abs(a), angle(b)),
           complex(real(a) * 2, imag(b) * 3) + conj(a), a ^ 3 + b ^ -2, host_mix(a, b), -a + 2 * b - 1.5]
    for k = 0..14
        if !close(out[i, k], ref[k])
            print "element ", i, " result ", k, ": ", out[i, k], " expected ", ref[k]
        endif
        assert(close(out[i, k], ref[k]))
    endfor
    assert(flags[i] == (a == b ? 1 : 0) + (a != 0 ? 2 : 0) + 4)
endfor
print "kernel_complex: ok"
