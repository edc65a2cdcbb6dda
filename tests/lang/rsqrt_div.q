% a / sqrt(b) in kernels against the interpreter's correctly rounded root and division (a
% `while` loop stays in the interpreter on every target). On CUDA a float kernel computes it
% as a * rsqrtf(b) (docs/language.md "Precision of math functions"): within 3 ulps of the
% rounded quotient (tolerance 3 * 2^-23 * |r| plus 2^-126 near 0), and every special value
% as the division gives it: zeros, infinities, NaN, negative b, subnormal b. The C back end
% and --precision double divide exactly (tolerance 0 there is not assumed: the same bound).

function [] = __kernel__ quot(a : vec'unchecked, b : vec'unchecked, y : vec'unchecked, z : vec'unchecked, pos : int)
    y[pos] = a[pos] / sqrt(b[pos])
    z[pos] = (a[pos] + 1) ./ sqrt(b[pos] + 2) - a[pos] / sqrt(b[pos])
endfunction

function ok = same(v, r)
    if isnan(r)
        ok = isnan(v)
    elseif isinf(r)
        ok = v == r
    else
        ok = abs(v - r) <= 3 * 2^-23 * abs(r) + 2^-126
    endif
endfunction

function [] = main()
    inf = 1 / 0
    special_a = [1, -1, 0, 0, 2, inf, -inf, 0/0, 3, 1, 5, 1e30, 1e-30]
    special_b = [0, 0, 0, 4, -1, 4, inf, 2, 0/0, inf, 1e-40, 1e-30, 1e30]
    ns = numel(special_a)
    n = 3000
    a = zeros(n)
    b = zeros(n)
    r0 = rand(n)
    r1 = rand(n)
    k = 0
    while k < n
        if k < ns
            a[k] = special_a[k]
            b[k] = special_b[k]
        else
            a[k] = (r0[k] - 0.5) * 2^(mod(k, 40) - 20)
            b[k] = r1[k] * 2^(mod(k * 7, 60) - 30)
        endif
        k += 1
    endwhile
    y = ones(n) * 77   % poisoned: the kernel writes every element
    z = ones(n) * 77
    parallel_do(n, a, b, y, z, quot)
    bad = 0
    k = 0
    while k < n
        r = a[k] / sqrt(b[k])
        if !same(y[k], r)
            print "a / sqrt(b) of ", a[k], " and ", b[k], ": kernel ", y[k], ", interpreter ", r
            bad += 1
        endif
        k += 1
    endwhile
    % the second form mixes ./ and a difference: each quotient within its bound
    k = ns
    while k < n
        q1 = (a[k] + 1) ./ sqrt(b[k] + 2)
        q2 = a[k] / sqrt(b[k])
        r = q1 - q2
        if abs(z[k] - r) > 3 * 2^-23 * (abs(q1) + abs(q2)) + 2^-126 + 2^-23 * abs(r)
            print "(a+1) ./ sqrt(b+2) - a / sqrt(b) of ", a[k], " and ", b[k], ": kernel ", z[k], ", interpreter ", r
            bad += 1
        endif
        k += 1
    endwhile
    assert(bad == 0)
    print "rsqrt_div: ", n, " quotients ok"
endfunction
