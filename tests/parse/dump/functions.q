% Functions, lambdas, types, attributes and declarations.
import "imfilter.q"
function [a, b] = two(x : T, y : int = 100)
  a = x
  b = y
endfunction
function c:scalar = comb(n, r)
  c = n
end
function y : scalar = __kernel__ k1(x : vec'unchecked'hwconst, pos : int)
  y += x[pos]
end
function [] = __kernel__ gauss[N : int](fc : vec'hw_const, t : cube{4}, u : vec[??], v : ivec(2), w : cube[uint8]'mirror, acc : [(scalar) -> scalar], m : mat2x2'checked'safe'circular'clamped'const'nocopy'hwtex_const'hwtex_nearest'hwtex_linear'half'single'double'static)
  function y = __device__ inner(c : vec3) concealed
    y = c
  endfunction
endfunction
function y = morph[T](x : cube[T], op : [__device__ (T, T) -> T])
  y = x
endfunction
f1 = x -> x + 1
f2 = (x, y) -> x * y
f3 = (x : scalar, y : scalar) -> x + y
f4 = __device__ (x : scalar, gamma : scalar) -> x ^ gamma
f5 = __kernel__ (y : cube'unchecked, pos : ivec3) -> y[pos] = 0
f6 = (a, b) -> (s = a + b; s * 2)
type accumulator : [__device__ (scalar, scalar) -> scalar]
type hvec2 : vec[scalar'half](2)
type point : mutable class
  x : int
  y : int = 2
endtype
reduction (x : cube) -> sum(x) = r_sum(x)
reduction x -> real(ifft3(x)) -> irealfft3(x)
macro [] = profile()
  if $target("gpu")
    !kernel_arg name=y; type="inout"; cache_slices=y[:]; numel=256
  endif
endmacro
{!parallel for} {!kernel_tiling dims=[32,16,1]; mode="global", target="gpu"}
!hist_profile
{!sched gpu_index=mod(k,2)}
{!kernel_tiling dims=auto; mode="global"}
