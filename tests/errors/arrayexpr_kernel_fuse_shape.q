% EXPECT: 1 ^tests/errors/arrayexpr_kernel_fuse_shape\.q:15:11: (runtime )?error: shape mismatch in '-': \[30,40\] and \[40,40\]
% A launch fused with the statement after it whose operands differ in shape: the launch
% runs (it writes g), then the statement gives the runtime's message at its own line.
function [] = __kernel__ tv_grad(x : mat'clamped, g : mat'unchecked, pos : ivec2)
    g[pos] = x[pos + [0, 1]] - x[pos]
endfunction

function [] = main()
    u = rand(40, 40)
    v = rand(30, 40)
    g = zeros(40, 40)
    parallel_do(size(u), u, g, tv_grad)
    w = u - g
    parallel_do(size(u), u, g, tv_grad)
    w = v - g
    print w
endfunction
