% Macros (transform_macro.c): `!name` attributes, calls as statements, outputs, parameters
% bound by position or by key, $target decided at compile time.

macro [] = bump(arr, k)
    arr[0] += k
endmacro

macro [y] = twice_plus(x, c = 1)
    y = 2 * x + c
endmacro

macro [lo, hi] = bounds(v)
    lo = v - 1
    hi = v + 1
endmacro

macro [] = target_note()
    if $target("gpu")
        on_gpu[0] = 1
    else
        on_gpu[0] = 0
    endif
endmacro

a = zeros(2)
bump(a, 5)
!bump arr=a; k=2
assert(a[0] == 7)

b = twice_plus(3 + 1)       % the argument is substituted as one expression: 2 * (3 + 1) + 1
assert(b == 9)
[b] = twice_plus(2, 10)
assert(b == 14)
[l, h] = bounds(b)
assert(l == 13 && h == 15)

on_gpu = ones(1) * -1
!target_note
assert(on_gpu[0] == $target("gpu"))
assert($target("cpu") + $target("gpu") == 1)
assert($target("gpu") == $target("nvidia_cuda"))
g = 0
if $target("cpu") || $target("gpu")
    g = 1
endif
assert(g == 1)
print "macros: ok"
