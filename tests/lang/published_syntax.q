% Syntax that published Quasar programs use beyond the seeds (QUASAR-NOTES.md, "What published
% programs rely on"; docs/parser.md), each checked against a value computed another way.

% a type after a call argument: `denoise(img, img, half_search : int, h : scalar)`
function y = scale(x : vec, n : int, h : scalar)
    y = x * n + h
end
x = [1, 2, 3]
half_search = 2
h = 0.5
y = scale(x, half_search : int, h : scalar)
assert(y[0] == 2.5 && y[2] == 6.5)
z = scale(x : vec, 3, 1/2)
assert(z[1] == 6.5)

% a lambda with a `;`-terminated statement list as an argument:
% `slider.onchange.add(() -> (p.th1 = slider.value;))`
function [] = fire(callback, times)
    for t = 1..times
        callback()
    end
end
hits = [0]
fire(() -> (hits[0] += 1;), 3)
fire(() -> (hits[0] += 10; hits[0] += 100;), 2)
assert(hits[0] == 3 + 220)

% C-style declarations with the built-in type names: `int pw = 5`
int pw = 5
scalar s = 1
int k = 7
assert(pw == 5 && s == 1.0 && k == 7)
k /= 2            % an int declared as int divides as ints (docs/language.md)
assert(k == 3)

% `~=` is "not equal" in an expression; a statement `x ~= m` stays the xor-assignment
a = 3
if a~=0
    ne = 1
else
    ne = 0
end
assert(ne == 1)
b = a ~= 3
assert(!b)
n = 4
steps = 0
while n ~= 0
    n -= 1
    steps += 1
end
assert(steps == 4)
g = 6
g ~= 3            % xor: 110 ^ 011 = 101
assert(g == 5)
v = [6]
r = (v[0] ~= 5)   % seed 001: a parenthesized element update yields the new value
assert(r == 3 && v[0] == 3)
if (a ~= 3) || (v[0] ~= 3)
    assert(false)
end

% a trailing comma after a statement
beta = 2*3^2,
assert(beta == 18)
c = [1, 2],
assert(numel(c) == 2)

% `function [] __kernel__ name(...)` without '=' (seed 001's copy_kernel)
function [] __kernel__ copy_kernel(x : vec'const, y : vec'nocopy, pos : int)
    y[pos] = x[pos] * 2
end
src = 0..7
dst = ones(8) * -1
parallel_do(size(dst), src, dst, copy_kernel)
for i = 0..7
    assert(dst[i] == 2 * i)
end
% ... inside a kernel, C-style declarations and `~=` too
function [] __kernel__ marks(x : vec, y : vec, pos : int)
    int j = pos * 2
    y[pos] = x[pos] ~= 3 ? j : -j
end
out = ones(8) * 99
parallel_do(8, src, out, marks)
for i = 0..7
    assert(out[i] == (i == 3 ? -2 * i : 2 * i))
end

% a user variable shadows a built-in of the same name: `disp.subplot(1,3,0)` names a variable
disp = [1, 2, 3]
disp[0] = 5
assert(sum(disp) == 10)
function y = widen(disp, title)
    y = disp * title
end
assert(widen(2, 3) == 6)
% ... in a kernel too
function [] __kernel__ shadow(x : vec, y : vec, pos : int)
    disp = x[pos] * 2
    title = disp + 1
    y[pos] = title
end
w = ones(8) * -1
parallel_do(8, src, w, shadow)
for i = 0..7
    assert(w[i] == 2 * i + 1)
end
