% tests/gpu.sh (launch step): the host time of parallel_do of a trivial kernel, back to back;
% toc waits for the GPU, so the time is that of finished work.
function [] = __kernel__ k_trivial(x : vec, pos : int)
    x[pos] = 1
endfunction
x = zeros(1)
parallel_do(1, x, k_trivial)
n = 100000
tic()
for r = 1..n
    parallel_do(1, x, k_trivial)
endfor
t = toc("100000 launches")
assert(x[0] == 1)
printf("launch: %.3f us per parallel_do\n", 1000 * t / n)
