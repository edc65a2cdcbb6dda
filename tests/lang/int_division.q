% One rule for division (docs/language.md, "Operators"): `/` and `./` are real division for
% every operand kind; a compound assignment `x op= y` with an int x and an int y stays an
% int for every operator (`/=` and `./=` truncate toward zero, `^=` is the integer power),
% in host code and in kernels alike; a scalar on either side makes it the scalar x op y.
function [] = __kernel__ kern(r : vec, pos : int)
    j = 7
    j /= 2
    h = -7
    h ./= 2
    e = 3
    e ^= 3
    q = 7 / 2
    s = 5
    s += 0.5
    r[0] = j
    r[1] = h
    r[2] = e
    r[3] = q
    r[4] = s
end

function [] = main()
    % host code
    j = 7
    j /= 2
    assert(j == int(7 / 2) && j == 3 && 7 / 2 == 3.5)
    h = -7
    h ./= 2
    assert(h == -3)                      % toward zero, as int() and C
    e = 3
    e ^= 3
    assert(e == 27)
    s = 5
    s += 0.5                             % a scalar operand: the scalar result
    assert(s == 5.5)
    t = 9
    t /= 2.0
    assert(t == 4.5)
    % j = j / 2 is a plain assignment of a real division
    k = 7
    k = k / 2
    assert(k == 3.5)
    % the loop of seed 003's bitonic sort: j halves as an int down to 0
    n = 0
    j = 64
    while j > 0
        j /= 2
        n += 1
    end
    assert(n == 7 && j == 0)
    % a compound int division by zero is an error (tests/errors/int_div_zero.q)

    % kernels: the same rule, interpreted and compiled
    r = ones(5) * -1
    parallel_do(1, r, kern)
    assert(r[0] == 3 && r[1] == -3 && r[2] == 27 && r[3] == 3.5 && r[4] == 5.5)
    print "int division ok"
end
