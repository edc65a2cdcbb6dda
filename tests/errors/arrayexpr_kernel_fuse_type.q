% EXPECT: 1 ^tests/errors/arrayexpr_kernel_fuse_type\.q:13:9: (runtime )?error: type mismatch: argument 'x' of kernel 'tv_grad' expects mat, got cube
% A launch fused with the statement after it (transform_arrayexpr.c, fuse_launch) whose
% argument does not fit the kernel's parameter: the guards send it back to parallel_do,
% whose message names the kernel and the launch's line.
function [] = __kernel__ tv_grad(x : mat'clamped, g : mat'unchecked, pos : ivec2)
    g[pos] = x[pos + [0, 1]] - x[pos]
endfunction

function [] = main()
    u = rand(40, 40, 2)
    g = zeros(40, 40, 2)
    for it = 1..2
        parallel_do(size(u), u, g, tv_grad)
        u = u - 0.5 * g
    endfor
endfunction
