% Generic __device__ functions: untyped parameters are specialised for every use.
% norm(-2) = 2 and norm([3,4]) = 5 (seed 001).

function y = __device__ twice(x)
    y = 2 * x
endfunction

function [] = main()
    norm = __device__ (x) -> sqrt(sum(x.^2))
    assert(norm(-2) == 2)
    assert(norm([3, 4]) == 5)
    assert(norm([1, 2, 2]) == 3)
    assert(norm(0) == 0)

    assert(twice(3) == 6)
    assert(twice(1.25) == 2.5)
    tv = twice([1, 2])
    assert(tv[0] == 2 && tv[1] == 4)
    tc = twice(complex(1, -1))
    assert(real(tc) == 2 && imag(tc) == -2)

    % the same generic functions called from a kernel (a closure over `norm`), on small
    % vectors and on scalars
    function [] = __kernel__ use_norm(x : mat, y : vec, z : vec, pos : int)
        row = x[pos, :]
        y[pos] = norm(row)
        z[pos] = twice(x[pos, 0])
    endfunction

    n = 6
    x = zeros(n, 2)
    for i = 0..n-1
        x[i, 0] = 3 * i
        x[i, 1] = 4 * i
    endfor
    y = ones(n) * -1
    z = ones(n) * -1
    parallel_do(n, x, y, z, use_norm)
    for i = 0..n-1
        assert(abs(y[i] - 5 * i) < 1e-4)
        assert(z[i] == 6 * i)
    endfor
    print "device_generic: ok"
endfunction
