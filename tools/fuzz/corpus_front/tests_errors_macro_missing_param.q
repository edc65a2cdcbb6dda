% EXPECT: 1 ^tests/errors/macro_missing_param\.q:6:1: error: macro 'setk' needs its parameter 'k'
macro [] = setk(v, k)
    v[0] = k
endmacro
a = zeros(1)
!setk v=a
