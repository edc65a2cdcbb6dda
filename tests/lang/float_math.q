% Math functions in kernels against the interpreter's (a `while` loop stays in the
% interpreter on every target). Compiled kernels compute a single-precision operand's
% function in float (cosf, expf, powf, atan2f, ...; docs/language.md "Precision of math
% functions"), the interpreter in double rounded to float: they may differ by a few ulps
% (glibc's float functions are within 2 ulps, CUDA's within 4, the interpreter's within 0.5),
% so the tolerance is 6 * 2^-23 * |r| (at least 6 ulps of r), plus 2^-126 near 0. An int operand keeps the exact double
% computation (cos(2^24 + 1) is not cos(2^24)); with --precision double every function is
% the double one, exactly the interpreter's.

function [] = __kernel__ float_fns(x : vec'unchecked, y : mat'unchecked, pos : int)
    v = x[pos]
    u = v - floor(v)   % in [0, 1)
    y[pos, 0] = exp(v / 8)
    y[pos, 1] = log(v + 0.001)
    y[pos, 2] = log2(v + 0.001)
    y[pos, 3] = log10(v + 0.001)
    y[pos, 4] = sin(v)
    y[pos, 5] = cos(v)
    y[pos, 6] = tan(u)
    y[pos, 7] = asin(2 * u - 1)
    y[pos, 8] = acos(2 * u - 1)
    y[pos, 9] = atan(v - 20)
    y[pos, 10] = sinh(u * 4 - 2)
    y[pos, 11] = cosh(u * 4 - 2)
    y[pos, 12] = tanh(u * 4 - 2)
    y[pos, 13] = (v + 0.5) ^ 1.7
    y[pos, 14] = u .^ 3
    y[pos, 15] = atan2(u - 0.5, v - 20)
endfunction

function [] = __kernel__ int_fns(y : mat'unchecked, big : int, pos : int)
    n = big + pos
    y[pos, 0] = cos(n)
    y[pos, 1] = sin(n)
    y[pos, 2] = exp(n - big - 3)
    y[pos, 3] = n ^ 0.5
endfunction

function r = host_float(v, j)
    u = v - floor(v)
    fns = [exp(v / 8), log(v + 0.001), log2(v + 0.001), log10(v + 0.001), sin(v), cos(v), tan(u), _
           asin(2 * u - 1), acos(2 * u - 1), atan(v - 20), sinh(u * 4 - 2), cosh(u * 4 - 2), _
           tanh(u * 4 - 2), (v + 0.5) ^ 1.7, u .^ 3, atan2(u - 0.5, v - 20)]
    r = fns[j]
endfunction

function [] = main()
    double_mode = 1 + 1e-10 > 1
    n = 2000
    x = 40 * rand(n)
    y = zeros(n, 16)
    parallel_do(n, x, y, float_fns)
    k = 0
    while k < n
        for j = 0..15
            r = host_float(x[k], j)
            d = abs(y[k, j] - r)
            tol = double_mode ? 0 : 6 * 2^-23 * abs(r) + 2^-126
            if d > tol
                error("function ", j, " of ", x[k], ": kernel ", y[k, j], ", interpreter ", r)
            endif
        endfor
        k += 1
    endwhile

    big = 16777217   % 2^24 + 1: not a float
    yi = zeros(4, 4)
    parallel_do(4, yi, big, int_fns)
    k = 0
    while k < 4
        m = big + k
        assert(yi[k, 0] == cos(m) && yi[k, 1] == sin(m))
        assert(yi[k, 2] == exp(k - 3) && yi[k, 3] == m ^ 0.5)
        k += 1
    endwhile
    assert(abs(yi[1, 0] - cos(16777216)) > 1e-3)   % the test can tell the two apart
endfunction
