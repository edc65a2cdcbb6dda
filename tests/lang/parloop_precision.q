% Precision of accumulators (docs/language.md): a sum of scalars over a host loop gives the
% same result serially (--no-parloop; the parloop-diff group runs this file both ways) and
% in parallel, within a few float roundings: both add in double and round once at the end.
% Before, the serial loop rounded to float after every addition and drifted by 0.1-1%.
function y : scalar = __kernel__ ksum(x : vec, pos : int)
    y += x[pos]
end

function [] = main()
    n = 50000
    s = 0.0
    for i = 0..n-1
        s = s + i * 0.5
    end
    exact = 0.5 * (n - 1) * n / 2       % 624987500, within a float rounding
    assert(abs(s - exact) / exact < 1e-6)

    p = 1.0
    for i = 1..40
        p *= 1.1
    end
    assert(abs(p - 1.1^40) / 1.1^40 < 1e-6)

    t = 0                                % an int to start, then scalars
    for i = 0..n-1
        t += i * 0.5
    end
    assert(abs(t - exact) / exact < 1e-6)

    % a kernel output summed by the interpreter adds in double too
    x = 0..n-1
    k = parallel_do(n, x * 0.5, ksum)
    assert(abs(k - exact) / exact < 1e-6)
    print s, " ", t, " ", k
end
