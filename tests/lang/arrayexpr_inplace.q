% A statement x = e(x, ...) whose leaves read x only at pos writes x's own array (no new
% array each time: interp_arrayexpr.c output_array); where x is also read as a slice, or
% another name holds x's array, or a fused launch's kernel reads it, the result goes to a
% new array. Each result against a serial loop over the elements.
function [] = main()
    n = 300
    m = 200
    u = rand(n, m)
    y = rand(n, m)
    g = rand(n, m)
    r = u + 0
    for it = 1..5
        u = u - 0.05 * ((u - y) - 0.2 * g)
        for i = 0..n-1
            for j = 0..m-1
                r[i, j] = r[i, j] - 0.05 * ((r[i, j] - y[i, j]) - 0.2 * g[i, j])
            endfor
        endfor
    endfor
    assert(max(abs(u - r)) <= 1e-5)
    % another name for u's array keeps the old values
    keep = u
    k0 = keep[7, 9]
    u = u .* 2 + 1
    assert(keep[7, 9] == k0)
    assert(abs(u[7, 9] - (2 * k0 + 1)) <= 1e-5)
    % u read reversed (a slice) and at pos: the reversed elements must be the old ones
    v = 1..2000
    w = v + 0
    v = v[1999..-1..0] + 2 * v
    for i = 0..1999
        assert(v[i] == w[1999 - i] + 2 * w[i])
    endfor
    % x += e and a compound in place, int elements
    a = int(rand(n, m) * 100)
    b = int(rand(n, m) * 100)
    a0 = a + 0
    a = a * 3 - b
    for i = 0..17..n-1
        for j = 0..13..m-1
            assert(a[i, j] == a0[i, j] * 3 - b[i, j])
        endfor
    endfor
    % an element-wise statement whose target is the only leaf
    z = rand(n, m)
    z0 = z + 0
    z = sqrt(z) + z
    assert(max(abs(z - (sqrt(z0) + z0))) <= 1e-5)
    print "arrayexpr_inplace: ok"
endfunction
