% Non-integer indices (docs/language.md, "Indexing"): a scalar index is truncated toward
% zero, as int() does, for reads and writes, in host code and in kernels; so -0.5 is
% index 0, and only a truncated index outside the array is out of bounds.
function [] = __kernel__ kern(x : vec, y : vec, pos : int)
    p = pos + 0.75
    y[pos + 0.5] = x[p] + x[-0.4]
end

function [] = main()
    x = [10, 20, 30, 40]
    assert(x[1.7] == x[int(1.7)] && x[1.7] == 20)
    assert(x[-0.5] == x[0])
    assert(x[3.999] == 40)
    y = zeros(4)
    y[2.9] = 5
    assert(y[2] == 5 && sum(y) == 5)
    A = [[1, 2], [3, 4]]
    assert(A[1.5, 0.2] == 3)
    z = ones(3) * -1
    parallel_do(3, x, z, kern)
    for i = 0..2
        assert(z[i] == x[i] + x[0])
    end
    print "non-integer indices ok"
end
