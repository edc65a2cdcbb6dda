% EXPECT: 1 ^tests/errors/arrayexpr_kernel_fuse_checked\.q:5:9: (runtime )?error: index \[[0-9]+,40\] out of range for array 'x' of size \[40,40\] in kernel 'tv_grad'
% A kernel that checks its indices is not fused with the statement after its launch: its
% error names it, not a fused kernel.
function [] = __kernel__ tv_grad(x : mat'checked, g : mat'unchecked, pos : ivec2)
    d = x[pos + [0, 1]] - x[pos]
    g[pos] = d
endfunction

function [] = main()
    u = rand(40, 40)
    g = zeros(40, 40)
    parallel_do(size(u), u, g, tv_grad)
    u = u - 0.5 * g
    print u[0]
endfunction
