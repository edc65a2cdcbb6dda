% From seed 001 (Quasar - CUDA Support GUIDE), lines 562-563: SIMD type definitions
type i8vec4 : vec[int8](4)
type hvec2 : vec[scalar'half](2)
