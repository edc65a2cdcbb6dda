% Code attributes are accepted and harmless: {!parallel for}, !parallel for, kernel
% attributes inside kernels, documentation attributes.

{!author name="OpenQuasar tests"}
{!doc category="tests"}

function [] = __kernel__ add_one(x : vec, pos : int)
    {!kernel target="gpu"}
    {!kernel_tiling dims=[32,16,1]; mode="global"; target="gpu"}
    x[pos] += 1
endfunction

function [] = __kernel__ scale(x : vec'unchecked'const, y : vec, pos : int)
    {!kernel_transform enable="localwindow"}
    y[pos] = 2 * x[pos]
endfunction

N = 64
x = zeros(N)
parallel_do(N, x, add_one)
y = ones(N) * -1
parallel_do(N, x, y, scale)
for i = 0..N-1
    assert(x[i] == 1 && y[i] == 2)
endfor

r = zeros(8, 8)
{!parallel for}
for m = 0..7
    for n = 0..7
        r[m, n] = m * n
    endfor
endfor

s = zeros(8)
!parallel for
for m = 0..7
    s[m] = m + 1
endfor

t = zeros(3)
for k = 0..2
    {!unroll times=2; multi_device=true}
    {!sched gpu_index=0}
    t[k] = k * 10
endfor

for m = 0..7
    assert(s[m] == m + 1 && t[mod(m, 3)] == mod(m, 3) * 10)
    for n = 0..7
        assert(r[m, n] == m * n)
    endfor
endfor
print "attributes: ok"
