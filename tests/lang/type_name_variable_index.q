% A local variable named like a built-in type (cube, vec, mat) indexed with calls in its
% indices: the indices are expressions, not type arguments (they once resolved to the
% wrong slot: "a mat is not a function"). Reference: the same fill through a plain name.
function [] = __kernel__ fill(cube : cube, w : int, pos : int)
    cube[floor(pos / w), mod(pos, w), 0] = pos
endfunction

function [] = main()
    w = 4
    cube = zeros(3, 4, 2)
    plain = zeros(3, 4, 2)
    for k = 0..11
        cube[floor(k / w), mod(k, w), 1] = k + 0.5
        plain[floor(k / w), mod(k, w), 1] = k + 0.5
    endfor
    parallel_do(12, cube, w, fill)
    for k = 0..11
        plain[floor(k / w), mod(k, w), 0] = k
    endfor
    assert(sum(abs(cube - plain)) == 0)
    vec = [10, 20, 30]
    mat = ones(2, 2)
    assert(vec[abs(-2)] == 30)
    assert(vec[int(1.2)] + mat[floor(0.5), round(0.7)] == 21)
    cube[int(ceil(0.5)), 0, 0] = -1
    assert(cube[1, 0, 0] == -1 && plain[1, 0, 0] == 4)
endfunction
