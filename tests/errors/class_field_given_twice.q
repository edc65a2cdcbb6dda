% EXPECT: 1 ^tests/errors/class_field_given_twice\.q:6:(17|18): runtime error: field 'x' of 'point' is given twice
type point : mutable class
    x : int
    y : int
end
p = point(x:=1, x:=2)
