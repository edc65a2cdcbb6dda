% A program of host array code only (no __kernel__): on --target cuda every statement below
% is a generated kernel and the arrays stay on the GPU. tests/gpu.sh runs it with --profile
% and wants 1 upload (f) and no download (the check at the end is a parallel loop).
n = 512
f = rand(n, n)
u = f
for it = 1..50
    u = u - 0.1 * ((u - f) + 0.2 * (u - 0.5))
    r = mean((u - f).^2)
endfor
assert(r > 0)
% per element a linear recurrence: u* + (f - u*) * 0.88^50 with u* = (f + 0.1) / 1.2
bad = 0
for k = 0..numel(f) - 1
    s = (f[k] + 0.1) / 1.2
    want = s + (f[k] - s) * 0.88^50
    bad += abs(u[k] - want) > 1e-4
endfor
assert(bad == 0)
print "ok"
