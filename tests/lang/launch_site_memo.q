% One parallel_do call site launched again and again with arguments that differ in number
% kind, element type, length and kernel, and with a kernel whose captured variable changes
% type; another whose launch size changes. The CUDA launcher takes a site's last specialization again when the arguments match
% it; each change here must pick another. Checked against host loops; outputs poisoned.

function [] = __kernel__ scale(y : vec, x, a, pos : int)
    y[pos] = x[pos] * a + 0.5
endfunction

function [] = __kernel__ offset(y : vec, x, a, pos : int)
    y[pos] = x[pos] + a
endfunction

c = 1
function [] = __kernel__ captured(y : vec, x, a, pos : int)
    y[pos] = x[pos] * c - a
endfunction

% the one site
function y = launch(k, x, a)
    y = zeros(numel(x))
    for i = 0..numel(y)-1
        y[i] = -777
    endfor
    parallel_do(numel(y), y, x, a, k)
endfunction

% a site whose launch size changes while the arguments stay alike
function y = launch_first(k, x, a, n)
    y = zeros(numel(x))
    for i = 0..numel(y)-1
        y[i] = -777
    endfor
    parallel_do(n, y, x, a, k)
endfunction

function r = ramp(x)
    r = x
    for i = 0..numel(r)-1
        r[i] = mod(3 * i, 11) - 4
    endfor
endfunction

function [] = check(y, want, what)
    assert(numel(y) == numel(want), what)
    for i = 0..numel(y)-1
        assert(y[i] == want[i], what)
    endfor
endfunction

% host references
function w = host_scale(x, a)
    w = zeros(numel(x))
    for i = 0..numel(x)-1
        w[i] = x[i] * a + 0.5
    endfor
endfunction

xf = ramp(zeros(40))
xi = ramp(vec[int](40))
xs = ramp(zeros(5))
xt = ramp(zeros(3))
for round = 1..2
    check(launch(scale, xf, 2), host_scale(xf, 2), "float vector, int factor")
    check(launch(scale, xf, 2), host_scale(xf, 2), "the same again")
    check(launch(scale, xf, 1.5), host_scale(xf, 1.5), "scalar factor")
    check(launch(scale, xi, 3), host_scale(xi, 3), "int vector")
    check(launch(scale, xs, 2), host_scale(xs, 2), "a vector of 5")
    check(launch(scale, xt, 2), host_scale(xt, 2), "a vector of 3")
    check(launch(scale, xf, true), host_scale(xf, 1), "bool factor")
    w = zeros(40)
    for i = 0..39
        w[i] = xf[i] + 2
    endfor
    check(launch(offset, xf, 2), w, "another kernel at the site")
    for n = [40, 17, 40]
        for i = 0..39
            w[i] = i < n ? xf[i] + 2 : -777
        endfor
        check(launch_first(offset, xf, 2, n), w, "the first n elements")
    endfor
    c = 1
    for i = 0..39
        w[i] = xf[i] - 2
    endfor
    check(launch(captured, xf, 2), w, "captured int")
    c = 0.25
    for i = 0..39
        w[i] = xf[i] * 0.25 - 2
    endfor
    check(launch(captured, xf, 2), w, "captured scalar")
endfor
print("launch_site_memo: ok")
