% Cell arrays as published Quasar code writes them (issue 21, item 4): cell(n), vec[vec],
% vec[cube] with element read and write, isempty, and cells passed to functions and kernels.
function [] = __kernel__ scale(x : vec, y : vec, s : scalar, pos : int)
    y[pos] = x[pos] * s
end

function total = sum_all(c : vec[vec])
    total = 0
    for i = 0..numel(c)-1
        total += sum(c[i])
    end
end

function c = pyramid(x : cube, levels : int)
    c = vec[cube](levels)
    c[0] = x
    for l = 1..levels-1
        prev = c[l-1]
        c[l] = prev[0..2..size(prev,0)-1, 0..2..size(prev,1)-1, :]
    end
end

function [] = main()
    c = cell(3)
    assert(numel(c) == 3 && !isempty(c))
    for i = 0..2
        assert(isempty(c[i]))
    end
    c[0] = zeros(3)
    c[1] = "text"
    c[2] = 5
    assert(numel(c[0]) == 3 && c[1] == "text" && c[2] == 5)
    c[2] += 1
    assert(c[2] == 6)

    vv = vec[vec](3)
    for i = 0..2
        vv[i] = ones(i + 1) * (i + 1)
    end
    assert(sum_all(vv) == 1 + 4 + 9)
    vv[1][0] = 100                 % an element's own element
    assert(vv[1][0] == 100)

    p = pyramid(ones(8, 8, 3), 3)
    assert(numel(p) == 3)
    assert(size(p[1], 0) == 4 && size(p[2], 1) == 2 && size(p[2], 2) == 3)

    e = vec[cube](2)
    assert(isempty(e[0]) && ndims(e[0]) == 3)
    e[1] = zeros(2, 2, 2)
    assert(numel(e[1]) == 8)

    m = cell(2, 3)                 % two dimensions: row-major, as arrays
    assert(numel(m) == 6 && size(m, 0) == 2 && size(m, 1) == 3)
    m[1, 2] = "last"
    assert(m[5] == "last")

    % a kernel reads an element of a cell array
    y = zeros(3)
    parallel_do(numel(y), vv[2], y, 0.5, scale)
    w = vv[2]
    for i = 0..2
        assert(y[i] == w[i] * 0.5)
    end
    print "cells ok"
end
